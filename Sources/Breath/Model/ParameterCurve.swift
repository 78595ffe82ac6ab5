// Dynamic parameter curves with Core Haptics semantics, plus per-segment easing and no point limit.
// SPDX-License-Identifier: Apache-2.0

/// The dynamic parameters a curve can drive. Intensity control multiplies event intensity (0...1);
/// sharpness control adds to event sharpness (-1...1). Results are clamped to 0...1.
public enum DynamicParameter: String, Sendable, CaseIterable {
    case intensityControl = "HapticIntensityControl"
    case sharpnessControl = "HapticSharpnessControl"

    /// Value in force when no curve has started.
    public var neutral: Double { self == .intensityControl ? 1 : 0 }
    public var range: ClosedRange<Double> { self == .intensityControl ? 0...1 : -1...1 }
}

/// One control point; `easing` shapes the segment from this point to the next.
public struct ControlPoint: Sendable, Equatable {
    /// Seconds, relative to the curve's `time`.
    public var time: Double
    public var value: Double
    public var easing: Easing

    public init(time: Double, value: Double, easing: Easing = .linear) {
        self.time = time
        self.value = value
        self.easing = easing
    }
}

/// A curve placed at `time` (seconds into the pattern), its points relative to it. It acts from its first
/// control point (`start`) until a later-starting curve of the same parameter takes over; before its first
/// point the earlier curve's value holds (so a curve at Time 0 whose points begin at 11 s leaves 0...11 s to
/// the curve before it, as the Core Haptics 4-7-8 article writes its exhale). After its last point it holds
/// the last value. A single-point curve is a plain dynamic parameter (AHAP "Parameter").
public struct ParameterCurve: Sendable, Equatable {
    public var parameter: DynamicParameter
    public var time: Double
    public var points: [ControlPoint]

    public init(parameter: DynamicParameter, time: Double, points: [ControlPoint]) {
        self.parameter = parameter
        self.time = time
        var sorted = points.sorted { $0.time < $1.time }
        // The last point starts no segment: its easing shapes nothing (and AHAP's "Parameter" has none).
        if !sorted.isEmpty { sorted[sorted.count - 1].easing = .linear }
        self.points = sorted
    }

    public var endTime: Double { time + (points.last?.time ?? 0) }

    /// Pattern time from which the curve acts: its first control point.
    public var start: Double { time + (points.first?.time ?? 0) }

    /// The curve's value at pattern time `t` (the first point's value before it), clamped to the parameter's
    /// range. Of several points at one time, the last one's value holds from that time on.
    public func value(at t: Double) -> Double {
        guard let first = points.first else { return parameter.neutral }
        let local = t - time
        var v = first.value
        if local >= first.time {
            v = points.last!.value
            // Binary search for the segment containing `local`.
            var lo = 0, hi = points.count - 1
            if local < points[hi].time {
                while hi - lo > 1 {
                    let mid = (lo + hi) / 2
                    if points[mid].time <= local { lo = mid } else { hi = mid }
                }
                let a = points[lo], b = points[hi]
                let span = b.time - a.time
                let x = span > 0 ? (local - a.time) / span : 1
                v = a.value + (b.value - a.value) * a.easing.apply(x)
            }
        }
        return min(max(v, parameter.range.lowerBound), parameter.range.upperBound)
    }
}
