// The page's HTTP API without a server: the preview's JSON against render's own frames, its limits and
// one-line errors; and the control protocol's `clock` command. CPU only (fast tier).
// SPDX-License-Identifier: Apache-2.0

import Breath
import BreathWeb
import Foundation
import MotorControl
import MotorSession
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10)))
struct PreviewAndClockTests {
    @Test func presetPreviewIsRendersFrames() throws {
        let p = try PatternPreview.pattern(named: "4-7-8")
        #expect(p.duration == 19 && p.name == "4-7-8")
        let data = try PatternPreview.json(p.haptics, duration: p.duration, name: p.name, motor: .referenceERM, frameRate: 250)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let time = try #require(object["time_s"] as? [Double]), intensity = try #require(object["intensity"] as? [Double])
        let step = try #require(object["step"] as? Int)
        #expect(time.count <= PatternPreview.maxPoints && time.count >= PatternPreview.maxPoints / 2)
        // The oracle: the renderer's own frames, every step-th one.
        var renderer = FrameRenderer(pattern: p.haptics, duration: p.duration, frameRate: 250, resolution: .i16, motor: .referenceERM)
        var frames: [RenderedFrame] = []
        while case let chunk = renderer.renderDetailed(count: 16_384), !chunk.isEmpty { frames += chunk }
        let picked = stride(from: 0, to: frames.count, by: step).map { frames[$0] }
        #expect(picked.count == time.count)
        for (i, f) in picked.enumerated() {
            #expect(abs(f.time - time[i]) < 1e-4 && abs(f.intensity - intensity[i]) < 1e-4)
        }
    }

    @Test func badInputsAreOneLine() {
        #expect(throws: (any Error).self) { try PatternPreview.pattern(named: "0.1-0-1") }
        do { _ = try PatternPreview.pattern(named: "0.1-0-1") } catch { #expect("\(error)".hasPrefix("pattern: ") && !"\(error)".contains("\n")) }
        do { _ = try PatternPreview.ahap(Data("nonsense".utf8)) } catch { #expect("\(error)".hasPrefix("bad AHAP file") && !"\(error)".contains("\n")) }
        do { _ = try PatternPreview.ahap(Data(count: PatternPreview.maxUploadBytes + 1)) } catch { #expect("\(error)".contains("at most 1048576")) }
    }

    @Test func clockAnswersTheHostsWallClock() throws {
        let hub = ControlHub(inbox: ControlInbox(), pattern: try BreathPattern.parse("box"), strength: 1, sharpness: 0.3)
        let before = Date().timeIntervalSince1970 * 1000
        let line = try #require(hub.handle(line: #"{"command":"clock","id":"c1"}"#))
        let after = Date().timeIntervalSince1970 * 1000
        let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(event["event"] as? String == "clock" && event["id"] as? String == "c1")
        let ms = try #require(event["unix_ms"] as? Double)
        #expect(ms >= before - 1 && ms <= after + 1)
    }
}
