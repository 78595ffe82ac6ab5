// The simulated board's own clock: host monotonic time scaled by a drift and shifted by an offset.

/// Board ticks = offset + elapsed host time * clockHz * (1 + driftPPM / 1e6).
public struct SimClock: Sendable {
    public let clockHz: UInt64
    public let offsetTicks: UInt64
    public let driftPPM: Double
    /// Host monotonic ns at which the board booted.
    public let bootNs: UInt64

    public init(clockHz: UInt64 = 1_000_000, offsetTicks: UInt64 = 0, driftPPM: Double = 0, bootNs: UInt64) {
        self.clockHz = clockHz
        self.offsetTicks = offsetTicks
        self.driftPPM = driftPPM
        self.bootNs = bootNs
    }

    var ticksPerNs: Double { Double(clockHz) * (1 + driftPPM / 1e6) / 1e9 }

    public func ticks(atHostNs ns: UInt64) -> UInt64 {
        let elapsed = ns > bootNs ? Double(ns - bootNs) : 0
        return offsetTicks + UInt64(elapsed * ticksPerNs)
    }

    /// Host ns at which the board clock reads `tick` (clamped to boot).
    public func hostNs(atTick tick: UInt64) -> UInt64 {
        guard tick > offsetTicks else { return bootNs }
        return bootNs + UInt64((Double(tick - offsetTicks) / ticksPerNs).rounded(.up))
    }
}
