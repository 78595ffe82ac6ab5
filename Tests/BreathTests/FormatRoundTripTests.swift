// Breaths written as .haptic and Android waveform JSON and read back: the intended intensity, frame by
// frame at 1 ms, within a stated RMS of the original (docs/formats.md), and every jump and tap at the same millisecond.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import Testing
import TestSupport

/// How far a format's read-back intensity is from the original's.
struct RoundTripError: CustomStringConvertible {
    var rms: Double
    var worst: Double
    /// The largest time difference between matching edges (jumps of more than 0.1 in 1 ms: Android's first
    /// amplitude step, 1 of 255, is 0.063 in intensity), in ms; nil
    /// when the two do not have the same edges.
    var edgeMs: Int?
    var edges: Int

    init(_ a: [Double], _ b: [Double]) {
        let n = max(a.count, b.count)
        var sum = 0.0, worst = 0.0
        for k in 0..<n {
            let d = (k < a.count ? a[k] : 0) - (k < b.count ? b[k] : 0)
            sum += d * d
            worst = max(worst, abs(d))
        }
        rms = (sum / Double(max(n, 1))).squareRoot()
        self.worst = worst
        func edges(_ x: [Double]) -> [Int] { (1..<max(x.count, 1)).filter { abs(x[$0] - x[$0 - 1]) > 0.1 } }
        let (ea, eb) = (edges(a), edges(b))
        self.edges = ea.count
        edgeMs = ea.count == eb.count ? zip(ea, eb).map { abs($0 - $1) }.max() ?? 0 : nil
    }

    var description: String {
        String(format: "RMS %.5f, worst %.4f, edges %d, %@", rms, worst, edges, edgeMs.map { "\($0) ms" } ?? "edges differ")
    }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct FormatRoundTripTests {
    /// The patterns of docs/formats.md's table.
    static func plan(_ name: String) throws -> BreathPlan {
        var o = BreathOptions()
        o.length = .cycles(2)
        switch name {
        case "4-7-8", "box": return BreathPlan(pattern: try BreathPattern.parse(name), options: o)
        case "box sine-in-out":
            o.easing = .sineInOut
            return BreathPlan(pattern: try BreathPattern.parse("box"), options: o)
        default:  // tap-heavy: counted cue taps, ticks through every hold, the end taps
            o.cues = true
            o.countedTaps = true
            o.holdSignal = .ticks
            return BreathPlan(pattern: try BreathPattern.parse("4-7-8"), options: o)
        }
    }

    /// Intended intensity every millisecond, as render intends it (taps as the reference motor's pulses).
    static func intended(_ pattern: HapticPattern, duration: Double) -> [Double] {
        var r = FrameRenderer(pattern: pattern, duration: duration, frameRate: 1000, compensate: false)
        var out: [Double] = []
        while true {
            let frames = r.renderDetailed(count: 16_384)
            if frames.isEmpty { return out }
            out += frames.map(\.intensity)
        }
    }

    static let names = ["4-7-8", "box", "box sine-in-out", "tap-heavy"]

    /// The stated RMS of a line through IntensityTrace's points against the breath (docs/formats.md): 0.001
    /// for breaths of straight swells; an eased swell's chords sit a little farther off.
    static let traceRMS = ["4-7-8": 0.001, "box": 0.001, "box sine-in-out": 0.0011, "tap-heavy": 0.001]
    /// The line is within the trace's tolerance at every 5 ms sample, and a hair more between them.
    static let traceWorst = IntensityTrace.tolerance * 1.05

    @Test(arguments: names)
    func hapticComesBackWithinTheTolerance(name: String) throws {
        let plan = try Self.plan(name)
        let text = HapticClipExport.text(plan.haptics, duration: plan.duration)
        let back = try PatternFile(data: Data(text.utf8), name: "\(name).haptic")
        #expect(back.format == .haptic && back.notices.isEmpty)
        #expect(abs(back.pattern.duration - plan.duration) < 1e-9)
        let error = RoundTripError(Self.intended(plan.haptics, duration: plan.duration), Self.intended(back.pattern, duration: plan.duration))
        let points = text.components(separatedBy: "\"amplitude\": ").count - 1
        print("round trip .haptic \(name): \(error), \(points) amplitude values, \(text.utf8.count) bytes")
        #expect(error.rms <= Self.traceRMS[name]! && error.worst <= Self.traceWorst, "\(name): \(error)")
        #expect(error.edgeMs == 0, "\(name): \(error)")
        // The taps come back as they were: same instants, intensities and sharpness.
        let taps = Envelope(plan.haptics).taps, again = Envelope(back.pattern).taps
        #expect(taps.count == again.count)
        for (a, b) in zip(taps, again) {
            #expect(abs(a.time - b.time) < 1e-12 && abs(a.intensity - b.intensity) < 1e-12 && abs(a.sharpness - b.sharpness) < 1e-12)
        }
    }

    @Test(arguments: names)
    func androidWaveformComesBackWithinItsSteps(name: String) throws {
        let plan = try Self.plan(name)
        let wave = AndroidWaveform(plan.haptics, duration: plan.duration)
        #expect(wave.timings.count == wave.amplitudes.count && wave.timings.allSatisfy { $0 > 0 })
        #expect(wave.amplitudes.allSatisfy { (0...255).contains($0) })
        var back: [Double] = []
        for (t, a) in zip(wave.timings, wave.amplitudes) { back += Array(repeating: HapticMapping.intensity(androidAmplitude: a), count: t) }
        let original = Self.intended(plan.haptics, duration: plan.duration)
        #expect(back.count == original.count)
        let error = RoundTripError(original, back)
        print("round trip android \(name): \(error), \(wave.timings.count) steps, \(wave.json.utf8.count) bytes")
        #expect(error.rms <= 0.01, "\(name): \(error)")
        #expect(error.edgeMs == 0, "\(name): \(error)")
    }

    @Test func theHapticFileIsWhatMetasValidatorTakes() throws {
        let plan = try Self.plan("tap-heavy")
        let clip = HapticClipExport.clip(plan.haptics, duration: plan.duration)
        #expect(clip.amplitude.count >= 2 && clip.amplitude.first?.time == 0 && clip.duration == plan.duration)
        #expect(zip(clip.amplitude, clip.amplitude.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(clip.amplitude.allSatisfy { (0...1).contains($0.amplitude) && ($0.emphasis.map { $0.amplitude >= 0 && $0.amplitude <= 1 && $0.amplitude >= 0 } ?? true) })
        #expect(clip.amplitude.allSatisfy { p in p.emphasis.map { $0.amplitude >= p.amplitude && (0...1).contains($0.frequency) } ?? true })
        #expect(clip.frequency.allSatisfy { $0.time >= 0 && $0.time <= clip.duration && (0...1).contains($0.frequency) })
        #expect(clip.amplitude.contains { $0.emphasis != nil })
    }
}
