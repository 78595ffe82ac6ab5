// A pattern written as a file of any format motorbreath both reads and writes (AHAP, `.haptic`, `.hjif`), so
// the page and an app choose a format by its name instead of each knowing every exporter.
// SPDX-License-Identifier: Apache-2.0

import Foundation

extension PatternFileFormat {
    /// The extension a file of the format is saved with, without the dot: "ahap", "haptic", "hjif".
    public var fileExtension: String { rawValue }

    /// `pattern` as a file of this format lasting `duration` (a breath's trailing hold included), the
    /// exporters' own rules (docs/formats.md); `PatternFile` reads each back.
    public func text(_ pattern: HapticPattern, duration: Double? = nil, description: String = "made by motorbreath") -> String {
        PatternExportFormat(self).text(pattern, duration: duration, description: description)
    }
}

/// Every format a pattern can be exported as from one place (the page's Export links, an app): the three
/// files motorbreath also reads, and Android's two (a `createWaveform` waveform, `BasicEnvelopeBuilder`
/// envelope effects), which it writes only. The raw value is the name `?format=` and `render --format` take.
///
///     PatternExportFormat(rawValue: "android-envelope")!.text(pattern)   // {"effects": [...]}
public enum PatternExportFormat: String, Sendable, CaseIterable {
    case ahap, haptic, hjif, android
    case androidEnvelope = "android-envelope"

    /// A file format motorbreath reads, as an export format.
    public init(_ format: PatternFileFormat) { self = PatternExportFormat(rawValue: format.rawValue)! }

    /// The file name's ending, without the first dot: "ahap", "hjif", "android.json".
    public var fileExtension: String {
        switch self {
        case .ahap, .haptic, .hjif: rawValue
        case .android, .androidEnvelope: rawValue + ".json"
        }
    }

    /// The exporter that writes the format a piece at a time; nil for Android's, written whole.
    public var writer: (any StreamingPatternWriter.Type)? {
        switch self {
        case .ahap: AHAPExport.self
        case .haptic: HapticClipExport.self
        case .hjif: HJIFExport.self
        case .android, .androidEnvelope: nil
        }
    }

    /// `pattern` in this format, lasting `duration` (a breath's trailing hold included).
    public func text(_ pattern: HapticPattern, duration: Double? = nil, description: String = "made by motorbreath") -> String {
        if let writer { return writer.text(pattern, duration: duration, description: description) }
        return self == .android ? AndroidWaveform(pattern, duration: duration).json : AndroidEnvelope(pattern, duration: duration).json
    }
}
