// The offset bound when the board's rate is not known either: the lines (offset and rate) that pass between
// the fastest-trip constraints of every exchange, judged where the estimate is used.
// SPDX-License-Identifier: Apache-2.0

/// The fastest-trip estimator with the board's rate unknown: each exchange bounds the board clock from
/// below (the request cannot arrive before it was sent plus the forward minimum) and from above (the reply
/// cannot leave after it arrived less the backward minimum); every line (offset and rate) between those
/// points is possible, and the estimate at `end` is the middle of what those lines give there.
///
///     let e = RateUnknownLimit.errorUs(below: [(0, 10)], above: [(5, -20)], end: 100)
public enum RateUnknownLimit {
    /// The error (µs) of the middle of the feasible range at host time `end`. `below`: points (host ns,
    /// ns) the true offset line (zero) lies at or below, one per exchange, each the forward trip's excess
    /// over its minimum at the instant it could have arrived at the earliest; `above`: points it lies at or
    /// above, minus the backward trip's excess, at the instant the reply left at the latest. Infinity when
    /// the exchanges do not bound the rate (fewer than two of a kind).
    public static func errorUs(below: [(x: Double, y: Double)], above: [(x: Double, y: Double)], end: Double) -> Double {
        guard let r = range(below: below, above: above, end: end) else { return .infinity }
        return abs((r.lo + r.hi) / 2) / 1000
    }

    /// What the lines between the points give at `end` (ns): lowest and highest; nil when unbounded.
    public static func range(below: [(x: Double, y: Double)], above: [(x: Double, y: Double)], end: Double) -> (lo: Double, hi: Double)? {
        guard below.count >= 2, above.count >= 2 else { return nil }
        // Only the lower hull of the points above the line and the upper hull of those below it can hold it.
        let under = hull(below, lower: true), over = hull(above, lower: false)
        let all = under + over
        var lo = Double.infinity, hi = -Double.infinity
        let tolerance = 1e-6
        func feasible(_ a: Double, _ c: Double) -> Bool {
            for p in under where a + c * p.x > p.y + tolerance { return false }
            for p in over where a + c * p.x < p.y - tolerance { return false }
            return true
        }
        // The extremes of a + c end lie at vertices: lines through two of the points.
        for i in 0..<all.count {
            for j in (i + 1)..<max(i + 1, all.count) where all[i].x != all[j].x {
                let c = (all[j].y - all[i].y) / (all[j].x - all[i].x)
                let a = all[i].y - c * all[i].x
                guard feasible(a, c) else { continue }
                lo = min(lo, a + c * end)
                hi = max(hi, a + c * end)
            }
        }
        return lo.isFinite && hi.isFinite ? (lo, hi) : nil
    }

    /// The lower (or upper) convex hull of `points` (monotone chain), left to right.
    static func hull(_ points: [(x: Double, y: Double)], lower: Bool) -> [(x: Double, y: Double)] {
        let sorted = points.sorted { $0.x < $1.x || ($0.x == $1.x && (lower ? $0.y < $1.y : $0.y > $1.y)) }
        var h: [(x: Double, y: Double)] = []
        for p in sorted {
            if let last = h.last, last.x == p.x { continue }  // the tighter of equal x came first
            while h.count >= 2 {
                let o = h[h.count - 2], a = h[h.count - 1]
                let cross = (a.x - o.x) * (p.y - o.y) - (a.y - o.y) * (p.x - o.x)
                if lower ? cross <= 0 : cross >= 0 { h.removeLast() } else { break }
            }
            h.append(p)
        }
        return h
    }
}
