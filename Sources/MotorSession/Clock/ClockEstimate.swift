// Board clock tracking: offset and drift from CLOCK exchanges, refreshed for the whole session. The rate is
// the slope that maximises the gap between two envelopes of the exchanges (each request's send time bounds
// the board's tick from above, each reply's receive time from below); the offset is the gap's middle.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// One CLOCK exchange: host send/receive times and the board tick in between.
public struct ClockSample: Sendable {
    public var sentNs: UInt64
    public var receivedNs: UInt64
    public var tick: UInt64
    /// The documented minimum delay of the request to the board and of the reply to the host (ns), from
    /// the adapter's `LinkProfile`; 0 for an unknown adapter (both directions then count as alike).
    public var minToBoardNs: Double = 0
    public var minToHostNs: Double = 0
    public init(sentNs: UInt64, receivedNs: UInt64, tick: UInt64, minToBoardNs: Double = 0, minToHostNs: Double = 0) {
        self.sentNs = sentNs
        self.receivedNs = receivedNs
        self.tick = tick
        self.minToBoardNs = minToBoardNs
        self.minToHostNs = minToHostNs
    }

    /// (0 for a sample received "before" it was sent: a sample built by hand, never a trap.)
    public var rttNs: UInt64 { elapsed(receivedNs, since: sentNs) }
    public var midNs: UInt64 { sentNs + rttNs / 2 }
}

/// board tick = anchorTick + anchorFraction + (hostNs - anchorNs) * ticksPerNs.
public struct ClockEstimate: Sendable {
    public var anchorNs: UInt64
    public var anchorTick: UInt64
    /// The part of a tick beyond `anchorTick` the estimate puts at `anchorNs` (0 ..< 1). Kept rather than
    /// rounded into `anchorTick`, so a tick computed from the estimate is rounded once, not twice (on a
    /// CH340 or CP2102 link, whose exchanges pin the clock to about 2 µs, a second rounding is a fifth of it).
    public var anchorFraction = 0.0
    public var ticksPerNs: Double
    public var nominalTicksPerNs: Double

    public init(anchorNs: UInt64, anchorTick: UInt64, anchorFraction: Double = 0, ticksPerNs: Double, nominalTicksPerNs: Double) {
        self.anchorNs = anchorNs
        self.anchorTick = anchorTick
        self.anchorFraction = anchorFraction
        self.ticksPerNs = ticksPerNs
        self.nominalTicksPerNs = nominalTicksPerNs
    }

    /// The board tick at host time `ns`, rounded to the nearest whole tick.
    /// (Clamped to 0...UInt64.max, 0 for a non-finite result: never a trap, whatever the estimate holds.)
    public func tick(atHostNs ns: UInt64) -> UInt64 {
        let d = (Double(ns) - Double(anchorNs)) * ticksPerNs
        return UInt64(saturating: (Double(anchorTick) + (anchorFraction + d)).rounded())
    }

    /// The host time of board tick `tick` (clamped as `tick(atHostNs:)` is).
    public func hostNs(atTick tick: UInt64) -> UInt64 {
        UInt64(saturating: Double(anchorNs) + (Double(tick) - Double(anchorTick) - anchorFraction) / ticksPerNs)
    }

    /// How fast the board clock runs against the host's, in parts per million (positive = fast).
    public var driftPPM: Double { (ticksPerNs / nominalTicksPerNs - 1) * 1e6 }
}

/// Keeps recent samples and fits the board clock to them.
public struct ClockTracker: Sendable {
    public let nominalTicksPerNs: Double
    public private(set) var samples: [ClockSample] = []
    /// All round trips seen, for the report.
    public private(set) var rtts: [UInt64] = []
    /// The round trips of the last 50 exchanges kept, ns: what a live change's first frame and a CLOCK
    /// burst's pace are judged by (lazy: read at every reply, it allocates nothing).
    public var recentRoundTrips: LazyMapSequence<ArraySlice<ClockSample>, UInt64> { samples.suffix(50).lazy.map(\.rttNs) }
    /// Samples kept, at most this many and this many seconds back: the slope follows a drift that
    /// changes (an RC oscillator warming up) and stays precise for a stable crystal.
    public var capacity = 4096
    public var windowS = ClockTracker.defaultWindowS
    public static let defaultWindowS = 20.0
    /// Until the samples span this long, the nominal rate is kept as long as it fits every exchange's
    /// bounds (crystals are close to nominal); a rate that does not fit is fitted from the eighth sample on.
    public var minimumSpanS = 2.0
    /// The slope is searched this far either side of nominal: a board clock may be 5 % off (RC oscillators).
    public static let maxRateError = 0.05
    /// The offset comes from the recent samples (at the fitted slope): a window of 30 % of the slope's
    /// baseline, between these bounds, so more samples count once the slope is well known.
    public var offsetWindowS = ClockTracker.defaultOffsetWindowS
    public static let defaultOffsetWindowS: ClosedRange<Double> = 1.0...10.0
    /// Ticks per ns fitted over the kept samples, refreshed every 25 samples (the costly part).
    public private(set) var slope: Double
    /// Smallest round trip among the kept samples (refreshed with the slope).
    public private(set) var minRTTNs: UInt64 = 0
    private var sinceFit = 0

    public init(clockHz: UInt32) {
        nominalTicksPerNs = Double(clockHz) / 1e9
        slope = nominalTicksPerNs
    }

    public mutating func add(_ sample: ClockSample) {
        var s = sample
        // Minima that are not a finite, non-negative number of ns count as none: NaN in the envelopes would
        // leave them infinite (Swift's min and max skip it), and the estimate NaN.
        if !(s.minToBoardNs >= 0 && s.minToBoardNs.isFinite) { s.minToBoardNs = 0 }
        if !(s.minToHostNs >= 0 && s.minToHostNs.isFinite) { s.minToHostNs = 0 }
        samples.append(s)
        rtts.append(s.rttNs)
        minRTTNs = samples.count == 1 ? s.rttNs : min(minRTTNs, s.rttNs)
        if rtts.count > 100_000 { rtts.removeFirst(rtts.count - 50_000) }
        sinceFit += 1
        if sinceFit >= 25 || samples.count < 25 {
            sinceFit = 0
            let windowNs = UInt64(saturating: windowS * 1e9)
            // (Never the newest exchange: one whose reply came more than the window after its request would
            // otherwise leave no sample at all, and no estimate.)
            let from = min(s.sentNs, s.receivedNs > windowNs ? s.receivedNs - windowNs : 0)
            let old = samples.count - samples.suffix(while: { $0.sentNs >= from }).count
            let drop = max(old, samples.count - capacity)
            if drop > 0 { samples.removeFirst(drop) }
            minRTTNs = samples.map(\.rttNs).min() ?? 0
            slope = fitSlope()
        }
    }

    /// The current estimate (nil before the first sample).
    ///
    /// Each exchange bounds the board clock from both sides: the request cannot arrive before it was sent
    /// (plus the minimum one-way delay), and the reply cannot leave after it was received (minus that
    /// delay). So the true clock line lies above the lower envelope of the points (sent, tick) and below the
    /// upper envelope of the points (received, tick). For a wrong slope the two envelopes tilt toward each
    /// other; the gap between them is concave in the slope, so the slope that maximises it is the drift
    /// estimate, and the middle of the gap is the offset. Each exchange's documented minimum delays (its
    /// adapter's, `minToBoardNs`/`minToHostNs`) move its points: the request arrived that much after it was
    /// sent at the earliest, the reply left that much before it was received at the latest; without them
    /// (an unknown adapter) the middle assumes equal minimum delays both ways. The
    /// error comes from the best forward and the best backward exchange separately, not from one exchange
    /// that was fast both ways, which is far rarer on a jittery link.
    public func estimate() -> ClockEstimate? {
        guard let newest = samples.last else { return nil }
        let (low, high) = recentEnvelopes(newest)
        let reference = newest.receivedNs
        // (Finite whenever the window holds an exchange, which it always does: `recentEnvelopes`. Should it
        // not be, the newest tick is taken as it is at its reply: an estimate off by a round trip, not a trap.)
        let middle = (low + high) / 2
        let atReference = middle.isFinite ? middle : 0
        let whole = atReference.rounded(.down)
        // The anchor tick, clamped to the board's range (a tick before 0, or past UInt64.max, is no tick).
        let shifted = Double(newest.tick) + whole
        let tick: UInt64
        if whole >= 0 {
            let (sum, overflow) = newest.tick.addingReportingOverflow(UInt64(saturating: whole))
            tick = overflow ? .max : sum
        } else {
            let down = UInt64(saturating: -whole)
            tick = newest.tick > down ? newest.tick - down : 0
        }
        let fraction = shifted < 0 || tick == .max ? 0 : atReference - whole
        return ClockEstimate(anchorNs: reference, anchorTick: tick, anchorFraction: fraction,
                             ticksPerNs: slope, nominalTicksPerNs: nominalTicksPerNs)
    }

    /// Half the gap between the envelopes of the recent exchanges at the fitted slope, in µs: how far the
    /// board clock may be from the estimate, as the exchanges (and their minima) bound it. nil before the
    /// first sample, or when the exchanges contradict each other (a negative gap).
    public func uncertaintyUs() -> Double? {
        guard let newest = samples.last else { return nil }
        let (low, high) = recentEnvelopes(newest)
        let half = (low - high) / 2 / slope / 1000
        return half >= 0 ? half : nil
    }

    /// The envelopes at the newest reply's receive time over the offset window's exchanges.
    private func recentEnvelopes(_ newest: ClockSample) -> (low: Double, high: Double) {
        let reference = newest.receivedNs
        let span = Double(elapsed(reference, since: samples[0].sentNs)) / 1e9
        let window = min(max(span * 0.3, offsetWindowS.lowerBound), offsetWindowS.upperBound)
        // The newest exchange always counts: one whose round trip outlasted the window (a host that did not
        // read the reply for a second) left none in it, and the envelopes of no exchange are +-infinity, whose
        // middle is NaN (the player trapped converting it: issue 39). The window then reaches back from its
        // request instead, so the exchanges before it still pin the offset.
        let windowNs = UInt64(saturating: window * 1e9)
        var from = reference > windowNs ? reference - windowNs : 0
        if newest.sentNs < from { from = newest.sentNs > windowNs ? newest.sentNs - windowNs : 0 }
        let recent = samples.suffix(while: { $0.sentNs >= from })
        return ClockTracker.envelopes(recent, slope: slope, reference: reference, tick0: newest.tick)
    }

    /// The slope that maximises the gap between the two envelopes (ternary search over +-5 %); the nominal
    /// rate while the samples are young and it fits them.
    func fitSlope() -> Double {
        guard let newest = samples.last, let oldest = samples.first, samples.count >= 8 else { return nominalTicksPerNs }
        let span = Double(elapsed(newest.sentNs, since: oldest.sentNs)) / 1e9
        let hull = ClockHull(samples[...], reference: newest.receivedNs, tick0: newest.tick)
        func gap(_ slope: Double) -> Double {
            let g = hull.envelopes(slope: slope)
            return g.low - g.high
        }
        if span < minimumSpanS && gap(nominalTicksPerNs) >= 0 { return nominalTicksPerNs }
        var a = nominalTicksPerNs * (1 - ClockTracker.maxRateError), b = nominalTicksPerNs * (1 + ClockTracker.maxRateError)
        for _ in 0..<64 {
            let m1 = a + (b - a) / 3, m2 = b - (b - a) / 3
            if gap(m1) < gap(m2) { a = m1 } else { b = m2 }
        }
        let fitted = (a + b) / 2
        return fitted.isFinite && fitted > 0 ? fitted : nominalTicksPerNs
    }

    /// At host time `reference`, the highest the clock line may pass (from the requests' send times) and
    /// the lowest (from the replies' receive times), in ticks relative to `tick0`, for a given slope.
    static func envelopes(_ samples: ArraySlice<ClockSample>, slope: Double, reference: UInt64,
                          tick0: UInt64) -> (low: Double, high: Double) {
        var low = Double.infinity, high = -Double.infinity
        let r = Double(reference), t0 = Double(tick0)
        for s in samples {
            let tick = Double(s.tick) - t0
            low = min(low, tick - slope * (Double(s.sentNs) + s.minToBoardNs - r))
            high = max(high, tick - slope * (Double(s.receivedNs) - s.minToHostNs - r))
        }
        return (low, high)
    }
}

extension Array {
    /// The longest suffix whose elements all satisfy `keep`.
    func suffix(while keep: (Element) -> Bool) -> ArraySlice<Element> {
        var i = endIndex
        while i > startIndex && keep(self[i - 1]) { i -= 1 }
        return self[i...]
    }
}
