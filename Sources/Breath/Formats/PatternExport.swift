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
        switch self {
        case .ahap: AHAPExport.text(pattern, duration: duration, description: description)
        case .haptic: HapticClipExport.text(pattern, duration: duration, description: description)
        case .hjif: HJIFExport.text(pattern, duration: duration, description: description)
        }
    }
}
