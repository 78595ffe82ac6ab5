// A function of time that is a line between points, 0 outside them, with jumps (two points at one time),
// and the pointwise maximum of many such functions, merged in halves (O(n log k) for k functions).
// SPDX-License-Identifier: Apache-2.0

/// Points joined by straight lines; 0 before the first and after the last. Several points at one time are a
/// jump: the first is the value arriving, the last the value from then on.
struct Polyline: Sendable, Equatable {
    struct Point: Sendable, Equatable {
        var time: Double
        var value: Double
    }

    var points: [Point] = []

    /// The value arriving at `time` and the value from it on, the index of the next point to look at moved
    /// along (`k`: times are asked in order).
    func sides(at time: Double, from k: inout Int) -> (left: Double, right: Double) {
        while k < points.count && points[k].time < time { k += 1 }
        guard k < points.count else { return (0, 0) }
        if points[k].time == time {
            var last = k
            while last + 1 < points.count && points[last + 1].time == time { last += 1 }
            // Before the first point the line is 0; after the last it ends.
            return (k == 0 ? 0 : points[k].value, last + 1 == points.count ? 0 : points[last].value)
        }
        guard k > 0 else { return (0, 0) }
        let a = points[k - 1], b = points[k]
        let v = a.value + (b.value - a.value) * (time - a.time) / (b.time - a.time)
        return (v, v)
    }

    /// The pointwise maximum of `a` and `b`, with a point where the two cross.
    static func maximum(_ a: Polyline, _ b: Polyline) -> Polyline {
        if a.points.isEmpty { return b }
        if b.points.isEmpty { return a }
        var times = (a.points.map(\.time) + b.points.map(\.time)).sorted()
        var unique: [Double] = []
        unique.reserveCapacity(times.count)
        for t in times where unique.last != t { unique.append(t) }
        times = unique
        var ka = 0, kb = 0
        var out: [Point] = []
        out.reserveCapacity(times.count)
        var previous: (time: Double, a: Double, b: Double)?
        for t in times {
            let sa = a.sides(at: t, from: &ka), sb = b.sides(at: t, from: &kb)
            if let p = previous {
                // On (p.time, t) both are lines: from their values after p to their values arriving at t.
                let d0 = p.a - p.b, d1 = sa.left - sb.left
                if (d0 > 0 && d1 < 0) || (d0 < 0 && d1 > 0) {
                    let x = d0 / (d0 - d1)
                    out.append(Point(time: p.time + (t - p.time) * x, value: p.a + (sa.left - p.a) * x))
                }
            }
            let left = max(sa.left, sb.left), right = max(sa.right, sb.right)
            out.append(Point(time: t, value: left))
            if right != left { out.append(Point(time: t, value: right)) }
            previous = (t, sa.right, sb.right)
        }
        return Polyline(points: out)
    }

    /// The maximum of all `lines`, merged two at a time.
    static func maximum(_ lines: [Polyline]) -> Polyline {
        var round = lines.filter { !$0.points.isEmpty }
        while round.count > 1 {
            var next: [Polyline] = []
            next.reserveCapacity(round.count / 2 + 1)
            var k = 0
            while k < round.count {
                next.append(k + 1 < round.count ? maximum(round[k], round[k + 1]) : round[k])
                k += 2
            }
            round = next
        }
        return round.first ?? Polyline()
    }
}
