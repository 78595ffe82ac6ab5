// A haptic pattern file of any format motorbreath reads (AHAP, `.haptic`, `.hjif`), the format chosen by the file's
// extension and by its content, so every place that takes an AHAP file takes the others the same way.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The pattern file formats motorbreath reads.
public enum PatternFileFormat: String, Sendable, CaseIterable {
    /// Apple's AHAP (Core Haptics).
    case ahap
    /// Meta Haptics Studio / Lofelt Nice Vibrations `.haptic` (data model version 1).
    case haptic
    /// MPEG-I haptics interchange JSON (ISO/IEC 23090-31).
    case hjif

    /// The format as error lines and notes name it.
    public var name: String {
        switch self {
        case .ahap: "AHAP"
        case .haptic: ".haptic"
        case .hjif: ".hjif"
        }
    }

    /// What a file of the format holds, for a note: "an AHAP pattern".
    var holding: String {
        switch self {
        case .ahap: "an AHAP pattern"
        case .haptic: "a .haptic clip"
        case .hjif: "an MPEG-I haptics (.hjif) file"
        }
    }
}

/// A pattern read from an AHAP, `.haptic` or `.hjif` file: the pattern, the notes of the import, the format.
///
/// The format is the extension's (`.ahap`, `.haptic`, `.hjif`); content decides when the extension is another
/// (`.json`, none, a name the page made up) or contradicts it: a document whose first key is `metadata`,
/// `signals` or `version` holding an object is a `.haptic` clip; `version` holding a year ("2023"), `profile`,
/// `level`, `date`, `description`, `timescale`, `perceptions`, `avatars` or `syncs` is `.hjif`; `Version`, `Metadata` or
/// `Pattern` is AHAP. Size limits and errors are AHAP's (docs/inputs.md).
///
///     let file = try PatternFile(path: "tap.haptic")
///     play(file.pattern, for: file.pattern.duration)
public struct PatternFile: Sendable {
    public var pattern: HapticPattern
    public var notices: [String]
    public var format: PatternFileFormat

    /// Reads a file of at most `AHAPImport.maxFileBytes` (checked before it is read).
    public init(path: String) throws(HapticFileError) {
        let byName = PatternFile.format(named: path)
        let bytes = try AHAPFile.read(path, format: (byName ?? .ahap).name)
        try self.init(utf8: bytes, named: path, byName: byName)
    }

    /// Parses a file's bytes; `name` (a file name, if known) may choose the format.
    public init(data: Data, name: String? = nil) throws(HapticFileError) {
        try self.init(utf8: [UInt8](data), named: name, byName: name.flatMap(PatternFile.format(named:)))
    }

    init(utf8 bytes: [UInt8], named name: String?, byName: PatternFileFormat?) throws(HapticFileError) {
        let byContent = PatternFile.format(content: bytes)
        format = byContent ?? byName ?? .ahap
        notices = []
        if let byName, let byContent, byName != byContent {
            notices.append("\(name ?? "the file") holds \(byContent.holding); read as one")
        }
        switch format {
        case .ahap:
            let file = try AHAPImport(utf8: bytes)
            (pattern, notices) = (file.pattern, notices + file.notices)
        case .haptic:
            let file = try HapticClipImport(utf8: bytes)
            (pattern, notices) = (file.pattern, notices + file.notices)
        case .hjif:
            let file = try HJIFImport(utf8: bytes)
            (pattern, notices) = (file.pattern, notices + file.notices)
        }
    }

    /// The format a file name's extension names, or nil.
    public static func format(named name: String) -> PatternFileFormat? {
        let lower = name.lowercased()
        if lower.hasSuffix(".ahap") { return .ahap }
        if lower.hasSuffix(".haptic") { return .haptic }
        if lower.hasSuffix(".hjif") { return .hjif }
        return nil
    }

    /// The format the first key of the top-level object names, or nil (not an object, another key).
    static func format(content bytes: [UInt8]) -> PatternFileFormat? {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func skipSpace() { while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 } }
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
        let start = i + 1
        guard let end = bytes[start...].prefix(32).firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        switch String(decoding: bytes[start..<end], as: UTF8.self) {
        case "version":
            // .haptic's version is an object, .hjif's a string ("2023").
            i = end + 1
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            skipSpace()
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "{") { return .haptic }
            // A year ("2023", "2023-1") is .hjif's; any other string says nothing.
            let year = bytes.dropFirst(i + 1).prefix(4)
            return bytes[i] == UInt8(ascii: "\"") && year.count == 4 && year.allSatisfy({ (0x30...0x39).contains($0) }) ? .hjif : nil
        case "metadata", "signals": return .haptic
        case "profile", "level", "date", "description", "timescale", "perceptions", "avatars", "syncs": return .hjif
        case "Version", "Metadata", "Pattern": return .ahap
        default: return nil
        }
    }
}
