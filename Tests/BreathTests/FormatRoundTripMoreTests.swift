// Breaths written as MPEG-I `.hjif`, Android envelope effects and AHAP, and read back (or replayed): the
// intended intensity at 1 ms within the error docs/formats.md states for each, and the edges' timing.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import Testing
import TestSupport

/// The largest shift, in ms, of the original's edges (jumps of more than 0.1 in 1 ms) in `back`: where `back`
/// first crosses the jump's middle within 50 ms of it; nil when it does not.
func edgeShiftMs(_ original: [Double], _ back: [Double]) -> Int? {
    var worst = 0
    for k in 1..<original.count where abs(original[k] - original[k - 1]) > 0.1 {
        let middle = (original[k] + original[k - 1]) / 2, rising = original[k] > original[k - 1]
        let window = max(1, k - 50)...min(back.count - 1, k + 50)
        let crossings = window.filter { j in rising ? back[j] >= middle && back[j - 1] < middle : back[j] <= middle && back[j - 1] > middle }
        guard let nearest = crossings.min(by: { abs($0 - k) < abs($1 - k) }) else { return nil }
        worst = max(worst, abs(nearest - k))
    }
    return worst
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct FormatRoundTripMoreTests {
    static let names = FormatRoundTripTests.names

    @Test(arguments: names)
    func hjifComesBackWithinTheTolerance(name: String) throws {
        let plan = try FormatRoundTripTests.plan(name)
        let text = HJIFExport.text(plan.haptics, duration: plan.duration)
        let back = try PatternFile(data: Data(text.utf8), name: "\(name).hjif")
        #expect(back.format == .hjif && back.notices.isEmpty, "\(back.notices)")
        #expect(abs(back.pattern.duration - plan.duration) < 0.001)
        let original = FormatRoundTripTests.intended(plan.haptics, duration: plan.duration)
        let error = RoundTripError(original, FormatRoundTripTests.intended(back.pattern, duration: plan.duration))
        let keyframes = text.components(separatedBy: "\"amplitude_modulation\"").count - 1
        print("round trip .hjif \(name): \(error), \(keyframes) keyframes, \(text.utf8.count) bytes")
        // A tap's sharpness is whole hertz in the file (1/235 of sharpness), and the reference motor's pulse
        // for a tap is as long as its sharpness needs: a tap's pulse may end 1 ms sooner or later.
        let taps0 = Envelope(plan.haptics).taps.isEmpty
        #expect(error.rms <= (taps0 ? FormatRoundTripTests.traceRMS[name]! : 0.004) && (!taps0 || error.worst <= FormatRoundTripTests.traceWorst), "\(name): \(error)")
        #expect(error.edgeMs != nil && error.edgeMs! <= (taps0 ? 0 : 1), "\(name): \(error)")
        // Taps at the same millisecond, intensity exact, sharpness within whole hertz (1/235).
        let taps = Envelope(plan.haptics).taps, again = Envelope(back.pattern).taps
        #expect(taps.count == again.count)
        for (a, b) in zip(taps, again) {
            #expect(abs(a.time - b.time) <= 0.0005 && abs(a.intensity - b.intensity) < 1e-12 && abs(a.sharpness - b.sharpness) <= 0.5 / 235 + 1e-12)
        }
    }

    @Test(arguments: names)
    func androidEnvelopeKeepsTheGuaranteedLimits(name: String) throws {
        let plan = try FormatRoundTripTests.plan(name)
        let envelope = AndroidEnvelope(plan.haptics, duration: plan.duration)
        for e in envelope.effects {
            #expect(e.points.count <= 16 && e.points.last?.intensity == 0)
            #expect(e.points.allSatisfy { (20...1000).contains($0.durationMs) && (0...1).contains($0.intensity) && (0...1).contains($0.sharpness) })
        }
        let original = FormatRoundTripTests.intended(plan.haptics, duration: plan.duration)
        let back = (0..<original.count).map { envelope.intensity(at: (Double($0) + 0.5) / 1000) }
        let total = envelope.effects.flatMap(\.points).map(\.durationMs).reduce(0, +)
        let error = RoundTripError(original, back)
        let shift = edgeShiftMs(original, back)
        let points = envelope.effects.map(\.points.count).reduce(0, +)
        print("round trip android-envelope \(name): \(error), edge shift \(shift.map { "\($0) ms" } ?? "lost"), \(envelope.effects.count) effects, \(points) points, \(envelope.json.utf8.count) bytes, \(total) ms for \(original.count)")
        #expect(abs(total - original.count) <= 20 * envelope.effects.count, "\(name): \(total) ms")
        #expect(error.rms <= Self.envelopeRMS[name]!, "\(name): \(error)")
        #expect(shift != nil && shift! <= 10, "\(name): \(String(describing: shift))")
    }

    /// The stated RMS of the Android envelope per pattern (docs/formats.md): a line within 0.005 where the
    /// 20 ms limit allows, taps as 20 ms ramps, and a dip to 0 where a breath is split into effects.
    static let envelopeRMS = ["4-7-8": 0.03, "box": 0.03, "box sine-in-out": 0.03, "tap-heavy": 0.06]

    @Test(arguments: names)
    func ahapComesBackExactly(name: String) throws {
        let plan = try FormatRoundTripTests.plan(name)
        let back = try PatternFile(data: AHAPExport.data(plan.haptics, duration: plan.duration), name: "\(name).ahap")
        let original = FormatRoundTripTests.intended(plan.haptics, duration: plan.duration)
        let error = RoundTripError(original, FormatRoundTripTests.intended(back.pattern, duration: plan.duration))
        print("round trip AHAP \(name): \(error)")
        #expect(error.rms <= 1e-9 && error.edgeMs == 0, "\(name): \(error)")
    }

    /// The fields and types the reference software's loader requires (`IOJson::loadFile` and its
    /// `loadPerceptions`, `loadChannels`, `loadBands`, `loadEffects`, `loadKeyframes`), integers where it
    /// reads integers.
    @Test func theHJIFFileIsWhatTheReferenceLoaderTakes() throws {
        let plan = try FormatRoundTripTests.plan("tap-heavy")
        let text = HJIFExport.text(plan.haptics, duration: plan.duration)
        let top = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        for key in ["version", "profile", "level", "date", "description", "timescale", "perceptions", "avatars", "syncs"] { #expect(top[key] != nil, "\(key)") }
        #expect(top["version"] as? String == "2023" && top["timescale"] as? Int == 48_000)
        let perception = try #require((top["perceptions"] as? [[String: Any]])?.first)
        #expect(perception["perception_modality"] as? String == "Vibrotactile" && perception["effect_library"] is [Any])
        let channel = try #require((perception["channels"] as? [[String: Any]])?.first)
        for key in ["id", "description", "gain", "mixing_coefficient", "body_part_mask", "bands"] { #expect(channel[key] != nil, "\(key)") }
        let bands = try #require(channel["bands"] as? [[String: Any]])
        #expect(bands.map { $0["band_type"] as? String } == ["VectorialWave", "Transient"])
        for band in bands {
            #expect(band["lower_frequency_limit"] is Int && band["upper_frequency_limit"] is Int && band["curve_type"] == nil)
            for effect in try #require(band["effects"] as? [[String: Any]]) {
                #expect(effect["effect_type"] as? String == "Basis" && effect["position"] is Int && effect["phase"] != nil && effect["base_signal"] as? String == "Sine")
                for key in try #require(effect["keyframes"] as? [[String: Any]]) {
                    // JSONSerialization on Linux reads a whole number as Int, a fraction as Double.
                    #expect(key["relative_position"] is Int && key["frequency_modulation"] is Int && key["amplitude_modulation"] != nil, "\(key)")
                }
            }
        }
        #expect(text.contains("\"relative_position\": 0,") && !text.contains("\"relative_position\": 0.0"))
    }

    /// The envelope's JSON holds what `intensity(at:)` plays: the effects, their points and durations.
    @Test func theEnvelopeJSONIsItsEffects() throws {
        let plan = try FormatRoundTripTests.plan("4-7-8")
        let envelope = AndroidEnvelope(plan.haptics, duration: plan.duration)
        let top = try #require(try JSONSerialization.jsonObject(with: Data(envelope.json.utf8)) as? [String: Any])
        let effects = try #require(top["effects"] as? [[String: Any]])
        #expect(effects.count == envelope.effects.count)
        for (json, effect) in zip(effects, envelope.effects) {
            let points = try #require(json["control_points"] as? [[String: Any]])
            #expect(points.map { $0["duration_ms"] as? Int } == effect.points.map(\.durationMs))
            #expect(zip(points, effect.points).allSatisfy { abs(($0["intensity"] as? Double ?? -1) - $1.intensity) <= 5e-5 })
            #expect(json["initial_sharpness"] is Double || json["initial_sharpness"] is Int)
        }
    }
}
