// Writes a pattern as Android envelope effects: control points (intensity, sharpness, duration) for Android
// 16's `VibrationEffect.BasicEnvelopeBuilder`, within the limits every device guarantees: at most 16 points
// an effect, each segment 20 ms to 1 s, every effect ending at intensity 0.
// SPDX-License-Identifier: Apache-2.0

/// A pattern as Android basic envelope effects, played one after another. Each effect starts at intensity 0
/// (as the builder does) and ends at 0; its points are the intended intensity (taps as the reference motor's
/// pulses, what `render` intends) as a line within ``tolerance``, knots at least ``minimumSegmentMs`` apart
/// and at most ``maximumSegmentMs``. Intensity and sharpness are Core Haptics' as they are: both are
/// perceived values 0...1 in the builder's contract. A breath with more points than ``maximumPoints`` is
/// split into several effects where the intensity is lowest, with a dip to 0 there (two 20 ms ramps).
///
///     let json = AndroidEnvelope(plan.haptics, duration: plan.duration).json
public struct AndroidEnvelope: Sendable {
    /// One `addControlPoint(intensity, sharpness, durationMillis)`: the envelope reaches `intensity` and
    /// `sharpness` linearly over `durationMs` from the point before.
    public struct Point: Sendable, Equatable {
        public var intensity: Double
        public var sharpness: Double
        public var durationMs: Int
    }

    /// One `BasicEnvelopeBuilder` effect: the initial sharpness and the control points, the last at 0.
    public struct Effect: Sendable, Equatable {
        public var initialSharpness: Double
        public var points: [Point]
    }

    public var effects: [Effect]

    /// The guaranteed limits (Android 16 `VibratorEnvelopeEffectInfo`): points an effect, segment lengths.
    public static let maximumPoints = 16
    public static let minimumSegmentMs = 20
    public static let maximumSegmentMs = 1000
    /// How far the line may be from the intended intensity between knots (where no 20 ms limit forces more).
    public static let tolerance = 0.005

    public init(_ pattern: HapticPattern, duration: Double? = nil) {
        var renderer = FrameRenderer(pattern: pattern, duration: duration, frameRate: 1000, compensate: false)
        var samples: [Double] = []
        while true {
            let frames = renderer.renderDetailed(count: 16_384)
            if frames.isEmpty { break }
            samples += frames.map(\.intensity)
        }
        samples.append(0)
        let knots = Self.knots(samples)
        let sharpness = Self.sharpness(pattern, at: knots.map { Double($0.ms) / 1000 })
        effects = Self.split(knots, sharpness: sharpness)
    }

    /// Knots (ms, intensity) on the samples: each as far from the last as the line stays within the
    /// tolerance, at most 1 s on; the first at 0 ms, the last at the end (intensity 0). Where the line breaks
    /// sooner than 20 ms (a jump, a tap), the knot goes 20 ms on at the sample there farthest from the last
    /// knot (a jump's far side, a tap's peak), and a line broken by a jump ends 10 ms before it, so the 20 ms
    /// ramp is centred on the jump.
    static func knots(_ v: [Double]) -> [(ms: Int, intensity: Double)] {
        let least = minimumSegmentMs
        var out = [(ms: 0, intensity: v[0])]
        var a = 0, anchor = v[0]
        while a < v.count - 1 {
            var low = -Double.infinity, high = Double.infinity, end = a
            var e = a + 1
            while e < v.count && e - a <= maximumSegmentMs {
                let dt = Double(e - a)
                low = max(low, (v[e] - tolerance - anchor) / dt)
                high = min(high, (v[e] + tolerance - anchor) / dt)
                if low > high { break }
                end = e
                e += 1
            }
            var value = v[end]
            if e < v.count && e - a <= maximumSegmentMs {
                if e - a <= least {
                    // Broken within 20 ms: the farthest sample of the next 20 ms.
                    end = min(a + least, v.count - 1)
                    value = ((a + 1)...end).map { v[$0] }.max { abs($0 - anchor) < abs($1 - anchor) }!
                } else if e - a > least + least / 2 {
                    end = e - least / 2
                    value = v[end]
                }
            }
            // A last piece shorter than 20 ms joins the one before.
            if v.count - 1 - end < least && end != v.count - 1 {
                end = v.count - 1 - a <= maximumSegmentMs ? v.count - 1 : v.count - 1 - least
                value = v[end]
            }
            out.append((end, value))
            (a, anchor) = (end, value)
        }
        out[out.count - 1].intensity = 0
        return out
    }

    /// The sharpness at each time: a tap's within its first 40 ms, otherwise the continuous sharpness.
    static func sharpness(_ pattern: HapticPattern, at times: [Double]) -> [Double] {
        let continuous = HapticClipExport.frequency(pattern, at: times)
        let taps = Envelope(pattern).taps.sorted { $0.time < $1.time }
        var f = 0, k = 0
        return times.map { t in
            while f + 1 < continuous.count && continuous[f + 1].time <= t { f += 1 }
            while k < taps.count && taps[k].time + 0.04 < t { k += 1 }
            if k < taps.count && taps[k].time <= t { return taps[k].sharpness }
            return continuous.isEmpty ? 0 : HapticMapping.sharpness(frequency: continuous[f].frequency)
        }
    }

    /// The knots as effects of at most 16 points: where one would hold more, it ends at its lowest knot
    /// (after its first few), dropping to 0 over 20 ms, and the next rises from 0 over 20 ms.
    static func split(_ knots: [(ms: Int, intensity: Double)], sharpness: [Double]) -> [Effect] {
        var effects: [Effect] = []
        var start = 0
        while start < knots.count - 1 {
            let remaining = knots.count - 1 - start
            var end = knots.count - 1
            if remaining > maximumPoints {
                // Points start+1...end, plus a point at 0 when the end is not at 0: at most 16.
                // The next effect's first segment gives 20 ms to the dip: it must be 40 ms long.
                let window = ((start + 2)...(start + maximumPoints - 1)).filter { knots[$0 + 1].ms - knots[$0].ms >= 2 * minimumSegmentMs }
                end = window.min { (knots[$0].intensity, -$0) < (knots[$1].intensity, -$1) } ?? start + maximumPoints - 1
            }
            var points: [Point] = []
            for k in (start + 1)...end {
                var ms = knots[k].ms - knots[k - 1].ms
                // After a dip the first point rises from 0 over the 20 ms the dip took from it.
                if k == start + 1 && start > 0 && knots[start].intensity > 0 { ms = max(ms - minimumSegmentMs, minimumSegmentMs) }
                points.append(Point(intensity: knots[k].intensity, sharpness: sharpness[k], durationMs: ms))
            }
            if knots[end].intensity > 0 {
                points.append(Point(intensity: 0, sharpness: sharpness[end], durationMs: minimumSegmentMs))
            }
            effects.append(Effect(initialSharpness: sharpness[start], points: points))
            start = end
        }
        return effects
    }

    /// The intensity the effects play at `seconds` (back to back, each from 0), for reading them back.
    public func intensity(at seconds: Double) -> Double {
        let ms = seconds * 1000
        var t = 0.0, level = 0.0
        for effect in effects {
            level = 0
            for p in effect.points {
                let d = Double(p.durationMs)
                if ms < t + d { return level + (p.intensity - level) * (ms - t) / d }
                (t, level) = (t + d, p.intensity)
            }
        }
        return 0
    }

    /// `{"effects": [{"initial_sharpness": s, "control_points": [{"intensity", "sharpness", "duration_ms"}]}]}`.
    public var json: String {
        func number(_ x: Double) -> String { String((x * 10_000).rounded() / 10_000) }
        let body = effects.map { e in
            "    {\"initial_sharpness\": \(number(e.initialSharpness)), \"control_points\": [\n"
                + e.points.map { "      {\"intensity\": \(number($0.intensity)), \"sharpness\": \(number($0.sharpness)), \"duration_ms\": \($0.durationMs)}" }
                    .joined(separator: ",\n") + "\n    ]}"
        }
        return "{\n  \"effects\": [\n" + body.joined(separator: ",\n") + "\n  ]\n}\n"
    }
}
