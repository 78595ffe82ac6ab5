// The only exchanges that can bound the clock line: the lower convex hull of the requests' (send time, tick)
// and the upper hull of the replies' (receive time, tick). The slope search evaluates the envelopes at some
// 64 slopes; over the hulls (tens of points) instead of every exchange kept (up to a thousand), with the
// same arithmetic per point, so the fitted slope is the same.
// SPDX-License-Identifier: Apache-2.0

struct ClockHull {
    typealias Point = (x: Double, y: Double)
    /// Lower hull of (sent + its minimum to the board - reference, tick - tick0), by x.
    private(set) var lower: [Point] = []
    /// Upper hull of (received - its minimum to the host - reference, tick - tick0), by x.
    private(set) var upper: [Point] = []

    init(_ samples: ArraySlice<ClockSample>, reference: UInt64, tick0: UInt64) {
        let r = Double(reference), t0 = Double(tick0)
        let sent = samples.map { (x: Double($0.sentNs) + $0.minToBoardNs - r, y: Double($0.tick) - t0) }
        let received = samples.map { (x: Double($0.receivedNs) - $0.minToHostNs - r, y: Double($0.tick) - t0) }
        lower = ClockHull.hull(sent, keepsTurn: { $0 >= 0 })
        upper = ClockHull.hull(received, keepsTurn: { $0 <= 0 })
    }

    /// The envelopes at `slope`, as `ClockTracker.envelopes` computes them over every sample: for any slope
    /// the lowest point under a line of that slope lies on the lower hull, the highest on the upper.
    func envelopes(slope: Double) -> (low: Double, high: Double) {
        var low = Double.infinity, high = -Double.infinity
        for p in lower { low = min(low, p.y - slope * p.x) }
        for p in upper { high = max(high, p.y - slope * p.x) }
        return (low, high)
    }

    /// Andrew's monotone chain over the points sorted by x: a point stays while the turn it makes with the
    /// two before it is one `keepsTurn` accepts (counter-clockwise or straight for the lower hull, clockwise
    /// or straight for the upper; straight points are kept so no extreme point is lost to rounding).
    private static func hull(_ points: [Point], keepsTurn: (Double) -> Bool) -> [Point] {
        let sorted = points.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
        var h: [Point] = []
        h.reserveCapacity(32)
        for p in sorted {
            while h.count >= 2 {
                let a = h[h.count - 2], b = h[h.count - 1]
                let turn = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
                if keepsTurn(turn) { break }
                h.removeLast()
            }
            h.append(p)
        }
        return h
    }
}
