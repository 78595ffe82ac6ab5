// Maps host monotonic time to board ticks from CLOCK exchanges (minimum-RTT sample, nominal rate).

/// One CLOCK exchange: host send/receive times and the board tick in between.
public struct ClockSample: Sendable {
    public var sentNs: UInt64
    public var receivedNs: UInt64
    public var tick: UInt64
    public var rttNs: UInt64 { receivedNs - sentNs }
    public var midNs: UInt64 { sentNs + rttNs / 2 }
}

/// board tick = anchorTick + (hostNs - anchorNs) * ticksPerNs.
public struct ClockEstimate: Sendable {
    public var anchorNs: UInt64
    public var anchorTick: UInt64
    public var ticksPerNs: Double
    /// Round-trip times seen while estimating, ns.
    public var rtts: [UInt64]

    /// Estimate from the sample with the smallest round trip (the least queueing), at the nominal rate.
    public init(samples: [ClockSample], clockHz: UInt32) {
        let best = samples.min { $0.rttNs < $1.rttNs }!
        anchorNs = best.midNs
        anchorTick = best.tick
        ticksPerNs = Double(clockHz) / 1e9
        rtts = samples.map(\.rttNs)
    }

    public func tick(atHostNs ns: UInt64) -> UInt64 {
        let d = (Double(ns) - Double(anchorNs)) * ticksPerNs
        return UInt64(max(0, Double(anchorTick) + d))
    }

    public func hostNs(atTick tick: UInt64) -> UInt64 {
        UInt64(max(0, Double(anchorNs) + (Double(tick) - Double(anchorTick)) / ticksPerNs))
    }
}
