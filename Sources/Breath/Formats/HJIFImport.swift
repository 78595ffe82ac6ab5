// Reads MPEG-I haptics `.hjif` JSON (ISO/IEC 23090-31): the Vibrotactile perceptions' Transient bands as taps
// and their Curve and VectorialWave bands as one intensity envelope, by HapticMapping's rules; what cannot
// play on one vibration motor is dropped and said once, with a count.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Reads an MPEG-I haptics interchange file (`.hjif`, ISO/IEC 23090-31, the field names of its BSD reference
/// software) into the pattern it plays as on one motor. Times are whole ticks of the file's `timescale`.
///
/// - Transient bands: each keyframe a tap at its effect's position plus its relative position, intensity
///   sqrt(amplitude), sharpness from its frequency (65...300 Hz is 0...1).
/// - Curve and VectorialWave bands: each effect's amplitude keyframes a line (the latest effect begun plays,
///   as the reference decoder does), every band of every channel (times its gain) merged as the strongest at
///   each instant, played as one continuous event whose intensity control is sqrt(amplitude); the
///   keyframes' frequencies (the highest where bands overlap) are its sharpness control.
/// - Dropped, with one notice each saying how many: perceptions other than Vibrotactile, WaveletWave bands,
///   Reference and Composite effects; several channels are said to play on one motor; Curve bands of another
///   curve_type are read as straight lines.
///
/// A file that cannot be used throws one line (``HapticFileError``, format ".hjif"). The file limit is
/// AHAP's (64 MB), and the keyframes are walked one at a time, so memory is a small multiple of the file.
///
///     let file = try HJIFImport(path: "rain.hjif")
///     for notice in file.notices { print(notice) }
public struct HJIFImport: Sendable {
    public var pattern: HapticPattern
    /// Things dropped or read another way, one line each.
    public var notices: [String]

    /// The largest timescale read: the Main profile's 48 000 ticks a second.
    public static let maxTimescale = 48_000
    /// The first year of the standard's versions ("2023", "2023-1"...).
    public static let firstYear = 2023

    public init(data: Data) throws(HapticFileError) {
        try self.init(utf8: [UInt8](data))
    }

    /// Reads and parses a file of at most 64 MB (AHAP's limit), checked before it is read.
    public init(path: String) throws(HapticFileError) {
        try self.init(utf8: try AHAPFile.read(path, format: HJIFReader.format))
    }

    init(utf8 bytes: [UInt8]) throws(HapticFileError) {
        var reader = HJIFReader()
        let document: (top: JSONValue, walked: Bool, trailingComma: (line: Int, column: Int)?)
        do {
            document = try JSONParser.walk(bytes, along: HJIFReader.keys) { try reader.handle($0) }
        } catch let error as JSONSyntaxError {
            throw HJIFReader.failure("line \(error.line), column \(error.column)", "not valid JSON: \(error.reason)")
        } catch let error as HapticFileError {
            throw error
        } catch {
            throw HJIFReader.failure("top level", "\(error)")
        }
        guard let top = document.top.object else {
            throw HJIFReader.failure("top level", "expected a JSON object with \"version\", \"timescale\" and \"perceptions\", found \(document.top.summary)")
        }
        try Self.checkVersion(top["version"])
        guard let rawScale = top["timescale"] else { throw HJIFReader.failure("top level", "no \"timescale\" (ticks a second)") }
        guard let scale = rawScale.number, scale.isFinite, scale == scale.rounded(), scale >= 1, scale <= Double(Self.maxTimescale) else {
            throw HJIFReader.failure("timescale", "expected a whole number of ticks a second from 1 to \(Self.maxTimescale), found \(rawScale.summary)")
        }
        if let extra = top["perceptions"] {
            throw HJIFReader.failure("perceptions", document.walked ? "appears twice" : "expected an array, found \(extra.summary)")
        }
        guard document.walked else { throw HJIFReader.failure("top level", "no \"perceptions\" array") }
        var notices: [String] = []
        if let (line, column) = document.trailingComma {
            notices.append("line \(line), column \(column): a trailing comma (read, but the reference software refuses the file)")
        }
        notices += reader.notices
        pattern = try Self.pattern(reader.kept, ticksPerSecond: scale)
        self.notices = notices
    }

    /// "2023" or "2023-1": a year from 2023 and an amendment number, as the reference software checks it.
    static func checkVersion(_ raw: JSONValue?) throws(HapticFileError) {
        guard let raw else { throw HJIFReader.failure("top level", "no \"version\" (an .hjif file says \"\(firstYear)\")") }
        guard let text = raw.string else { throw HJIFReader.failure("version", "expected a string such as \"\(firstYear)\", found \(raw.summary)") }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let digits = parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
        guard digits, parts.count <= 2, parts[0].count == 4, let year = Int(parts[0]), year >= firstYear,
              parts.count == 1 || (parts[1].count == 1 && parts[1] != "0") else {
            throw HJIFReader.failure("version", "\(raw.summary) is not one motorbreath reads (ISO/IEC 23090-31: a year from \(firstYear), as \"\(firstYear)\" or \"\(firstYear)-1\")")
        }
    }

    /// The kept content in seconds, as one motor plays it.
    static func pattern(_ content: HJIFReader.Content, ticksPerSecond scale: Double) throws(HapticFileError) -> HapticPattern {
        let envelope = Polyline.maximum(content.lines)
        let last = max(envelope.points.last?.time ?? 0, content.taps.map(\.time).max() ?? 0)
        guard last / scale <= HapticPattern.longestSeconds else {
            throw HJIFReader.failure("perceptions", "a keyframe at \(last / scale) s is past the \(Int(HapticPattern.longestSeconds)) s (24 h) a pattern may last")
        }
        var events = content.taps.map {
            HapticEvent(kind: .transient, time: $0.time / scale, intensity: HapticMapping.intensity(amplitude: $0.amplitude),
                        sharpness: HapticMapping.sharpness(mpegFrequency: $0.frequency.isNaN ? HJIFReader.defaultFrequency : $0.frequency),
                        followsControls: false)
        }
        var curves: [ParameterCurve] = []
        if let first = envelope.points.first, let end = envelope.points.last, end.time > first.time {
            let t0 = first.time / scale
            events.append(HapticEvent(kind: .continuous(duration: end.time / scale - t0), time: t0, intensity: 1, sharpness: 0))
            curves.append(ParameterCurve(parameter: .intensityControl, time: t0, points: envelope.points.map {
                ControlPoint(time: $0.time / scale - t0, value: HapticMapping.intensity(amplitude: $0.value))
            }))
            let frequency = Polyline.maximum(content.frequencies)
            if let f0 = frequency.points.first {
                curves.append(ParameterCurve(parameter: .sharpnessControl, time: f0.time / scale, points: frequency.points.map {
                    ControlPoint(time: ($0.time - f0.time) / scale, value: HapticMapping.sharpness(mpegFrequency: $0.value))
                }))
            }
        }
        guard !events.isEmpty else {
            throw HJIFReader.failure("perceptions", "nothing to play: no Transient, Curve or VectorialWave keyframes in a Vibrotactile perception")
        }
        return HapticPattern(events: events, curves: curves)
    }
}

extension HJIFReader {
    /// What was dropped or read another way, one line each, in a fixed order.
    var notices: [String] {
        var out = dropped.keys.sorted().map { "\(dropped[$0]!) \($0); dropped" }
        if !curveTypes.isEmpty {
            out.append("Curve bands of curve_type \(curveTypes.sorted().joined(separator: ", ")) read as straight lines between keyframes")
        }
        if channelsKept > 1 {
            out.append("\(channelsKept) channels play on one motor: the strongest at each instant")
        }
        return out
    }
}
