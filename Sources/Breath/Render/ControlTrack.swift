// One dynamic parameter over the whole pattern: which curve is in force when, as eased segments in time
// order, built in one pass over the curves' points (O(points)) and read in O(1) per frame.
// SPDX-License-Identifier: Apache-2.0

/// One segment of a curve between two control points, eased; constant when `t1 <= t0`. Clamped to 0...1
/// (the intensity control's range; only the intensity control is read per frame).
struct CurveSegment: Sendable {
    var t0: Double, t1: Double, v0: Double, v1: Double
    var easing: Easing

    @inline(always)
    func value(at t: Double) -> Double {
        guard t1 > t0 else { return min(max(v1, 0), 1) }
        let v = v0 + (v1 - v0) * easing.apply((t - t0) / (t1 - t0))
        return min(max(v, 0), 1)
    }

    static func constant(_ v: Double) -> CurveSegment { CurveSegment(t0: 0, t1: 0, v0: v, v1: v, easing: .linear) }
}

/// A curve acts from its first control point until the next curve of the same parameter starts (the later
/// one in the pattern, for equal starts); before any curve the parameter is neutral.
struct ControlTrack: Sendable {
    struct Segment: Sendable {
        /// Pattern time this segment starts at; it lasts until the next segment's start.
        var start: Double
        /// Index of the curve in force (in the pattern's `curves`).
        var curve: Int32
        var shape: CurveSegment
    }

    let parameter: DynamicParameter
    let segments: [Segment]

    /// `curves` as the pattern keeps them: sorted by start, equal starts in pattern order.
    init(_ curves: [ParameterCurve], parameter: DynamicParameter) {
        self.parameter = parameter
        let mine = curves.indices.filter { curves[$0].parameter == parameter && !curves[$0].points.isEmpty }
        var segments: [Segment] = []
        for (n, k) in mine.enumerated() {
            let c = curves[k]
            let until = n + 1 < mine.count ? curves[mine[n + 1]].start : .infinity
            let pts = c.points
            var i = 0
            while i < pts.count {
                // Points at the same time: the last of them starts the segment (as ParameterCurve.value reads it).
                var j = i + 1
                while j < pts.count && pts[j].time <= pts[i].time { j += 1 }
                let a = pts[j - 1]
                let start = c.time + a.time
                if start >= until { break }
                let shape = j < pts.count
                    ? CurveSegment(t0: c.time + a.time, t1: c.time + pts[j].time, v0: a.value, v1: pts[j].value, easing: a.easing)
                    : .constant(a.value)
                if let last = segments.last, last.start == start { segments.removeLast() }
                segments.append(Segment(start: start, curve: Int32(k), shape: shape))
                i = j
            }
        }
        self.segments = segments
    }

    /// Reads the track at non-decreasing times.
    struct Cursor: Sendable {
        var index = -1

        /// Index of the segment in force at `t`, or nil before the first one.
        @inline(always)
        mutating func segment(at t: Double, in track: ControlTrack) -> Int? {
            let segments = track.segments
            while index + 1 < segments.count && segments[index + 1].start <= t { index += 1 }
            return index >= 0 ? index : nil
        }

        /// Moves to `t` as `segment(at:in:)` does, and says which segment is in force there (nil: before any
        /// curve) and until when (the next segment's start).
        mutating func seek(_ t: Double, in track: ControlTrack) -> (segment: Int?, until: Double) {
            let k = segment(at: t, in: track)
            return (k, index + 1 < track.segments.count ? track.segments[index + 1].start : .infinity)
        }

        /// The intensity control at `t` (neutral 1 before any curve).
        @inline(always)
        mutating func intensity(at t: Double, in track: ControlTrack) -> Double {
            guard let k = segment(at: t, in: track) else { return 1 }
            return track.segments[k].shape.value(at: t)
        }
    }
}
