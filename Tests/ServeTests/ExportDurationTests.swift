// An exported breath keeps its whole length: every preset's AHAP file (the page's Export), read back and
// rendered as the page previews it, lasts as long as the preset's preview, trailing hold included.
// SPDX-License-Identifier: Apache-2.0

import Breath
import BreathWeb
import Foundation
import Testing
import TestSupport

/// Every preset exported as AHAP and played back (imported, rendered) against the preset's own preview.
@Suite(.tags(.fast), .timeLimit(.minutes(10)))
struct ExportDurationTests {
    func preview(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(arguments: BreathPattern.presets.map(\.name))
    func exportedPresetLastsAsLongAsItsPreview(name: String) throws {
        let preset = try PatternPreview.pattern(named: name)
        let shown = try preview(try PatternPreview.json(preset.haptics, duration: preset.duration, name: name, motor: .referenceERM, frameRate: 250))
        let file = try PatternPreview.ahap(PatternPreview.ahapText(preset.haptics, duration: preset.duration, name: name))
        let played = try preview(try PatternPreview.json(file.haptics, duration: file.duration, name: "ahap", motor: .referenceERM, frameRate: 250))
        #expect(file.duration == preset.duration, "\(name): exported \(file.duration) s, previewed \(preset.duration) s")
        #expect(played["duration_s"] as? Double == shown["duration_s"] as? Double)
        // Played back frame for frame as previewed: the same times, intended intensity, drive and felt amplitude.
        for column in ["time_s", "intensity", "drive", "felt"] {
            let back = played[column] as? [Double] ?? [], previewed = shown[column] as? [Double] ?? []
            let same = back == previewed
            #expect(same, "\(name): \(column) differs (\(back.count) points played back, \(previewed.count) previewed)")
        }
        let frames = FrameRenderer(pattern: file.haptics, duration: file.duration, frameRate: 250, resolution: .i16, motor: .referenceERM).frameCount
        let previewed = FrameRenderer(pattern: preset.haptics, duration: preset.duration, frameRate: 250, resolution: .i16, motor: .referenceERM).frameCount
        #expect(frames == previewed, "\(name): \(frames) frames played back, \(previewed) previewed")
    }
}
