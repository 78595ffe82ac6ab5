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

    /// The page's Export .haptic and Export .hjif: each read back (by content, as the page's drop reads it)
    /// lasts as long as the preset and plays within the format's stated error (docs/formats.md).
    @Test(arguments: BreathPattern.presets.map(\.name))
    func everyPresetExportsAsHapticAndHJIF(name: String) throws {
        let preset = try PatternPreview.pattern(named: name)
        let original = FrameRenderer(pattern: preset.haptics, duration: preset.duration, frameRate: 250, resolution: .i16, motor: .referenceERM)
        for format in [PatternFileFormat.haptic, .hjif] {
            let text = PatternPreview.fileText(preset.haptics, duration: preset.duration, name: name, format: PatternExportFormat(format))
            let file = try PatternPreview.ahap(text)
            #expect(PatternFile.format(named: "x." + format.fileExtension) == format)
            #expect(abs(file.duration - preset.duration) < 1e-3, "\(name) \(format): \(file.duration) s against \(preset.duration) s")
            var a = original, b = FrameRenderer(pattern: file.haptics, duration: preset.duration, frameRate: 250, resolution: .i16, motor: .referenceERM)
            let x = a.renderDetailed(count: a.frameCount).map(\.intensity), y = b.renderDetailed(count: b.frameCount).map(\.intensity)
            let worst = zip(x, y).map { abs($0 - $1) }.max() ?? 1
            #expect(x.count == y.count && worst <= 0.01, "\(name) \(format): worst \(worst)")
        }
    }

    /// The page's Export Android links: the waveform's timings and the envelope's segments add up to the
    /// preset's whole length (its trailing hold included), and the envelope keeps Android's guaranteed
    /// limits (at most 16 points an effect, 20 ms to 1 s a segment, each effect ending at 0).
    @Test(arguments: BreathPattern.presets.map(\.name))
    func everyPresetExportsForAndroidAtItsLength(name: String) throws {
        let preset = try PatternPreview.pattern(named: name)
        let wave = try JSONSerialization.jsonObject(with: PatternPreview.fileText(preset.haptics, duration: preset.duration, name: name, format: .android)) as! [String: Any]
        let timings = try #require(wave["timings"] as? [Int])
        #expect(abs(Double(timings.reduce(0, +)) / 1000 - preset.duration) <= 0.002, "\(name): waveform \(timings.reduce(0, +)) ms, preset \(preset.duration) s")
        let envelope = try JSONSerialization.jsonObject(with: PatternPreview.fileText(preset.haptics, duration: preset.duration, name: name, format: .androidEnvelope)) as! [String: Any]
        let effects = try #require(envelope["effects"] as? [[String: Any]])
        var total = 0
        for effect in effects {
            let points = try #require(effect["control_points"] as? [[String: Any]])
            let durations = points.compactMap { $0["duration_ms"] as? Int }
            #expect(points.count <= 16 && durations.allSatisfy { (20...1000).contains($0) } && (points.last?["intensity"] as? Double) == 0,
                    "\(name): an effect of \(points.count) points, segments \(durations)")
            total += durations.reduce(0, +)
        }
        #expect(total <= Int((preset.duration * 1000).rounded()) + 20, "\(name): envelope \(total) ms, preset \(preset.duration) s")
    }
}
