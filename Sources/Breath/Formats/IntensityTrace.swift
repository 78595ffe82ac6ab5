// A pattern's continuous intensity as a line through few points: sampled finely between the instants where
// it may jump or bend (event edges, attack and release ends, control points, taps), each jump kept as two
// points at one time, and the samples thinned to the fewest points within a tolerance (a swinging door).
// SPDX-License-Identifier: Apache-2.0

/// The continuous intensity of a pattern (taps apart) as points joined by straight lines, within
/// `tolerance` of the pattern everywhere: what a format holding a line through points (`.haptic`
/// envelopes) writes. A jump is two points at one instant; every tap's instant has a point.
public struct IntensityTrace: Sendable {
    /// One point of the line: seconds, intensity 0...1.
    public struct Point: Sendable, Equatable {
        public var time: Double
        public var intensity: Double
    }

    /// The line's points, times non-decreasing, from 0 to the duration.
    public let points: [Point]
    /// The largest distance between the line and the pattern's intensity at any sample.
    public static let tolerance = 0.002
    /// Samples between two knots are at most this far apart (an eased curve's bend is followed this finely).
    public static let step = 0.005

    public init(_ pattern: HapticPattern, duration: Double? = nil) {
        // A line needs some length: a pattern of one tap at 0 still lasts a millisecond.
        let end = min(max(duration ?? pattern.duration, pattern.duration, 0.001), HapticPattern.longestSeconds)
        var knots: [Double] = [0, end]
        for e in pattern.events {
            knots.append(e.time)
            if !e.isTransient {
                knots.append(e.endTime)
                if e.attack > 0 { knots.append(e.time + e.attack) }
                if e.release > 0 { knots.append(e.endTime - e.release) }
            }
        }
        for c in pattern.curves { knots.append(contentsOf: c.points.map { c.time + $0.time }) }
        knots = knots.filter { $0 >= 0 && $0 <= end }.sorted()
        let taps = Set(pattern.events.filter(\.isTransient).map(\.time))
        var cursor = Envelope.Cursor(Envelope(pattern))
        var door = SwingingDoor(tolerance: Self.tolerance)
        var previous: Double?
        for knot in knots where knot != previous {
            if let from = previous {
                let n = Int(((knot - from) / Self.step).rounded(.up))
                for k in 1..<max(n, 1) { door.add(from + (knot - from) * Double(k) / Double(n), cursor.intensity(at: from + (knot - from) * Double(k) / Double(n))) }
                // Just before the knot, then at it: a jump is kept as two points at one time.
                let before = cursor.intensity(at: knot.nextDown)
                door.add(knot, before)
                let at = cursor.intensity(at: knot)
                if abs(at - before) > Self.tolerance || taps.contains(knot) { door.mark(knot, at) }
            } else {
                door.start(knot, cursor.intensity(at: knot))
            }
            previous = knot
        }
        points = door.finish()
    }
}

/// Thins samples to the fewest points whose line stays within `tolerance` of every sample: each new point
/// narrows the cone of slopes from the last kept point; a sample outside the cone keeps the one before it.
struct SwingingDoor {
    let tolerance: Double
    var kept: [IntensityTrace.Point] = []
    var low = -Double.infinity, high = Double.infinity
    var pending: IntensityTrace.Point?

    init(tolerance: Double) { self.tolerance = tolerance }

    mutating func start(_ t: Double, _ v: Double) {
        kept.append(IntensityTrace.Point(time: t, intensity: v))
    }

    mutating func add(_ t: Double, _ v: Double) {
        guard let anchor = kept.last else { return start(t, v) }
        let dt = t - anchor.time
        guard dt > 0 else { return }
        // The line stays inside 0...1 at every sample, so the point kept is never clamped: a clamp moved the
        // end of an exhale (the cone allowing -0.002 there) up by as much, and the whole line with it.
        let lo = max(low, (max(v - tolerance, 0) - anchor.intensity) / dt), hi = min(high, (min(v + tolerance, 1) - anchor.intensity) / dt)
        if lo <= hi {
            (low, high) = (lo, hi)
            pending = IntensityTrace.Point(time: t, intensity: v)
            return
        }
        flush()
        add(t, v)
    }

    /// A point kept as it is (a jump's far side, a tap's instant): the line so far ends before it.
    mutating func mark(_ t: Double, _ v: Double) {
        flush()
        kept.append(IntensityTrace.Point(time: t, intensity: v))
    }

    /// Keeps the pending sample, moved onto the cone (within the tolerance of every sample since the anchor).
    mutating func flush() {
        guard let p = pending, let anchor = kept.last else { return }
        let slope = min(max((p.intensity - anchor.intensity) / (p.time - anchor.time), low), high)
        kept.append(IntensityTrace.Point(time: p.time, intensity: min(max(anchor.intensity + slope * (p.time - anchor.time), 0), 1)))
        pending = nil
        (low, high) = (-.infinity, .infinity)
    }

    mutating func finish() -> [IntensityTrace.Point] {
        flush()
        return kept
    }
}
