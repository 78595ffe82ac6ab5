// Reads Meta/Lofelt `.haptic` JSON (data model version 1) as Meta's SDK validates it: values 0...1, times
// in order, an emphasis no weaker than its point, at least two amplitude points spanning some time.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Reads a Meta Haptics Studio / Lofelt Nice Vibrations `.haptic` file into a ``HapticClip`` and the
/// pattern it plays as. A file the SDK's validator refuses is refused here with one line
/// (``HapticFileError``, format ".haptic"); frequency points outside the amplitude envelope, which the
/// SDK's lenient mode accepts, are dropped with one notice. Envelope arrays are read point by point as
/// the parser reaches them, so memory is a small multiple of the file, whatever its shape.
///
///     let file = try HapticClipImport(path: "tap.haptic")
///     let pattern = file.pattern
public struct HapticClipImport: Sendable {
    /// The envelopes as the file holds them (frequency points outside the amplitude envelope dropped).
    public var clip: HapticClip
    /// The clip as a Core Haptics pattern (HapticMapping's rules).
    public var pattern: HapticPattern
    /// Things dropped or not used, one line each.
    public var notices: [String]

    /// The data model version read: major 1 (any minor and patch, as the SDK upgrades them).
    public static let majorVersion = 1

    /// Parses `.haptic` JSON text (UTF-8).
    public init(data: Data) throws(HapticFileError) {
        try self.init(utf8: [UInt8](data))
    }

    /// Reads and parses a file of at most `AHAPImport.maxFileBytes`, checked before it is read.
    public init(path: String) throws(HapticFileError) {
        try self.init(utf8: try AHAPFile.read(path, format: HapticClipReader.format))
    }

    init(utf8 bytes: [UInt8]) throws(HapticFileError) {
        var reader = HapticClipReader()
        let document: JSONParser.PathStreamed
        do {
            document = try JSONParser.parse(bytes, streaming: [HapticClipReader.amplitudePath, HapticClipReader.frequencyPath]) { path, value, k in
                try reader.read(value, at: k, in: path)
            }
        } catch let error as JSONSyntaxError {
            throw HapticClipReader.failure("line \(error.line), column \(error.column)", "not valid JSON: \(error.reason)")
        } catch let error as HapticFileError {
            throw error
        } catch {
            throw HapticClipReader.failure("top level", "\(error)")
        }
        clip = try reader.finish(document)
        pattern = clip.pattern
        notices = reader.notices
    }
}
