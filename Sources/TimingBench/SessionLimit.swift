// The best p99 schedule error over a whole session on an adapter link: the ideal estimator with the board's
// rate unknown, re-estimating from every exchange so far, judged through the session as frames play.
// SPDX-License-Identifier: Apache-2.0

import Breath
import SimBoard

/// The p99 schedule error an ideal clock estimator reaches over a session on a `LinkModel` link, with the
/// board's rate unknown: CLOCK exchanges every `prepareSpacingMs` for `prepareS` seconds, then every
/// `spacingMs` for the whole session (motorbreath's own cadence at 250 Hz), each written at a random instant
/// within `spreadMs` after its slot (the estimator's choice: spread over FTDI's timer, so no fixed phase
/// meets only part of it); the board answering at once, nothing else on the wire (AdapterLimit's mechanics,
/// restated from the docs). At each judged instant of the session (every `judgeEveryMs` from `startS`, as
/// frames play) the estimate is the middle of what every offset-and-rate line between all the exchanges
/// back by then gives there (RateUnknownLimit's estimator, knowing each direction's minimum); its error,
/// the frame's schedule error. The p99 over the session's instants is one trial's figure.
///
///     let p99s = SessionLimit.p99Us(model: LinkModel.named("ftdi")!, minutes: 10, trials: 20, seed: 1)
public enum SessionLimit {
    /// The session's shape: exchange cadence, when frames start, how often they are judged.
    public struct Cadence: Sendable {
        public var prepareS = 0.2, prepareSpacingMs = 10.0, spacingMs = 20.0
        /// Frames start this long after the first exchange (prepare and motorbreath's 300 ms start lead).
        public var startS = 0.5
        public var judgeEveryMs = 20.0
        /// Each request is written this long after its slot at most (nil: FTDI's timer or one USB frame).
        public var spreadMs: Double?
        public init() {}
    }

    /// One trial's errors (µs) at every judged instant of a `minutes`-long session.
    public static func errorsUs(model: LinkModel, minutes: Double, cadence: Cadence = Cadence(),
                                rng: inout SplitMix64) -> [Double] {
        let m = AdapterLimit.Mechanics(model)
        let (minForward, minBackward) = m.minimaNs
        let framePhase = rng.unit() * AdapterLimit.Mechanics.frameNs, holdPhase = rng.unit() * m.holdNs
        let spread = (cadence.spreadMs ?? max(m.holdNs, AdapterLimit.Mechanics.frameNs) / 1e6) * 1e6
        let end = cadence.startS * 1e9 + minutes * 60e9
        // Every exchange, in send order: (when its reply is back, its two points).
        var exchanges: [(back: Double, below: (x: Double, y: Double), above: (x: Double, y: Double))] = []
        var slot = 0.0
        while slot < end {
            let sent = slot + rng.unit() * spread
            let (atBoard, atHost) = m.exchange(sent: sent, framePhase: framePhase, holdPhase: holdPhase)
            // The true offset is zero: the board's tick is atBoard (as in AdapterLimit).
            exchanges.append((atHost, (sent + minForward, atBoard - sent - minForward),
                              (atHost - minBackward, -(atHost - atBoard - minBackward))))
            slot += (slot < cadence.prepareS * 1e9 ? cadence.prepareSpacingMs : cadence.spacingMs) * 1e6
        }
        exchanges.sort { $0.back < $1.back }
        var lines = FeasibleLines()
        var errors: [Double] = []
        var next = 0
        var t = cadence.startS * 1e9
        while t < end {
            while next < exchanges.count, exchanges[next].back <= t {
                lines.add(below: exchanges[next].below, above: exchanges[next].above)
                next += 1
            }
            if let mid = lines.middle(at: t) { errors.append(abs(mid) / 1000) }
            t += cadence.judgeEveryMs * 1e6
        }
        return errors
    }

    /// One p99 (µs) per trial, trials drawn from `seed`.
    public static func p99Us(model: LinkModel, minutes: Double, cadence: Cadence = Cadence(), trials: Int,
                             seed: UInt64) -> [Double] {
        var rng = SplitMix64(seed: seed)
        return (0..<trials).map { _ in ClockLimit.quantile(errorsUs(model: model, minutes: minutes, cadence: cadence, rng: &rng), 0.99) }
    }
}

/// The offset-and-rate lines (y = a + c x) that pass at or below every `below` point and at or above every
/// `above` point, kept as the two hulls that can hold them (points arrive in x order, so the hulls grow
/// by appending). For a rate c the offsets allowed are [A_above(c), A_below(c)]; the rates allowed, where
/// that is not empty (a concave gap, so an interval); what they give at x, [lo, hi].
struct FeasibleLines {
    private var under: [(x: Double, y: Double)] = []
    private var over: [(x: Double, y: Double)] = []
    /// Rates searched: ±5 % (an RC oscillator), as the session's tracker.
    static let maxRate = 0.05
    /// `rates()` as of the last points added (computed once per exchange, not per judged instant).
    private var cachedRates: ClosedRange<Double>??

    mutating func add(below: (x: Double, y: Double), above: (x: Double, y: Double)) {
        cachedRates = nil
        Self.append(below, to: &under, lower: true)
        Self.append(above, to: &over, lower: false)
    }

    private static func append(_ p: (x: Double, y: Double), to h: inout [(x: Double, y: Double)], lower: Bool) {
        if let last = h.last, p.x <= last.x {
            // Out of order (a reply overtaken by nothing but rounding): rebuild.
            h = RateUnknownLimit.hull(h + [p], lower: lower)
            return
        }
        while h.count >= 2 {
            let o = h[h.count - 2], a = h[h.count - 1]
            let cross = (a.x - o.x) * (p.y - o.y) - (a.y - o.y) * (p.x - o.x)
            if lower ? cross <= 0 : cross >= 0 { h.removeLast() } else { break }
        }
        h.append(p)
    }

    private func aBelow(_ c: Double) -> Double { under.reduce(Double.infinity) { min($0, $1.y - c * $1.x) } }
    private func aAbove(_ c: Double) -> Double { over.reduce(-Double.infinity) { max($0, $1.y - c * $1.x) } }

    /// The rates allowed, or nil while fewer than two points of a kind bound them.
    func rates() -> ClosedRange<Double>? {
        guard under.count >= 2, over.count >= 2 else { return nil }
        func gap(_ c: Double) -> Double { aBelow(c) - aAbove(c) }
        let best = Self.argmax(-Self.maxRate, Self.maxRate, gap)
        guard gap(best) >= -1e-6 else { return nil }
        func edge(_ inside: Double, _ outside: Double) -> Double {
            var (i, o) = (inside, outside)
            for _ in 0..<80 {
                let mid = (i + o) / 2
                if gap(mid) >= 0 { i = mid } else { o = mid }
            }
            return i
        }
        return edge(best, -Self.maxRate)...edge(best, Self.maxRate)
    }

    /// The middle of [lo, hi] at `x` (nil while the rate is not bounded).
    mutating func middle(at x: Double) -> Double? {
        if cachedRates == nil { cachedRates = .some(rates()) }
        guard let r = range(at: x, rates: cachedRates!) else { return nil }
        return (r.lo + r.hi) / 2
    }

    /// What the allowed lines give at `x`.
    func range(at x: Double, rates known: ClosedRange<Double>?? = nil) -> (lo: Double, hi: Double)? {
        guard let c = known ?? rates() else { return nil }
        let hiC = Self.argmax(c.lowerBound, c.upperBound) { aBelow($0) + $0 * x }
        let loC = Self.argmax(c.lowerBound, c.upperBound) { -(aAbove($0) + $0 * x) }
        return (aAbove(loC) + loC * x, aBelow(hiC) + hiC * x)
    }

    /// Ternary search for the maximum of a concave `f` on [a, b].
    static func argmax(_ a: Double, _ b: Double, _ f: (Double) -> Double) -> Double {
        var (a, b) = (a, b)
        for _ in 0..<100 {
            let m1 = a + (b - a) / 3, m2 = b - (b - a) / 3
            if f(m1) < f(m2) { a = m1 } else { b = m2 }
        }
        return (a + b) / 2
    }
}
