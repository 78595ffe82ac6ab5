// The simulated board's own clock: host monotonic time scaled by a drift (which may wander, as an RC
// oscillator's does with temperature) and shifted by an offset. Exact integer arithmetic, so that the
// tick at `hostNs(atTick: t)` is never before `t` (a rounding error there livelocked the simulation).
// SPDX-License-Identifier: Apache-2.0

/// Board ticks = offset + clockHz * integral of (1 + drift(t)) over the host time since boot, where the
/// drift starts at `driftPPM` and moves by `wanderPPMPerMinute`, changing in one-second steps.
public struct SimClock: Sendable {
    public let clockHz: UInt64
    public let offsetTicks: UInt64
    /// Drift at boot, parts per million (positive = the board clock runs fast).
    public let driftPPM: Double
    /// How fast the drift itself changes, ppm per minute of host time.
    public let wanderPPMPerMinute: Double
    /// Host monotonic ns at which the board booted.
    public let bootNs: UInt64

    private let driftPPB: Int128
    private let wanderPPBPerSecond: Int128

    public init(clockHz: UInt64 = 1_000_000, offsetTicks: UInt64 = 0, driftPPM: Double = 0,
                wanderPPMPerMinute: Double = 0, bootNs: UInt64) {
        self.clockHz = clockHz
        self.offsetTicks = offsetTicks
        self.driftPPM = driftPPM
        self.wanderPPMPerMinute = wanderPPMPerMinute
        self.bootNs = bootNs
        driftPPB = Int128((driftPPM * 1000).rounded())
        wanderPPBPerSecond = Int128((wanderPPMPerMinute * 1000 / 60).rounded())
    }

    /// The drift in effect `ns` after boot, ppm.
    public func driftPPM(atHostNs ns: UInt64) -> Double {
        let seconds = Int128(ns > bootNs ? (ns - bootNs) / 1_000_000_000 : 0)
        return Double(driftPPB + wanderPPBPerSecond * seconds) / 1000
    }

    public func ticks(atHostNs ns: UInt64) -> UInt64 {
        guard ns > bootNs else { return offsetTicks }
        let e = Int128(ns - bootNs)
        let second: Int128 = 1_000_000_000
        let n = e / second, r = e % second
        // Integral in ns x (1e9 + ppb): n whole seconds (the drift rising by the wander each second), then r ns.
        let whole = n * second * (second + driftPPB) + second * wanderPPBPerSecond * (n * (n - 1) / 2)
        let part = r * (second + driftPPB + wanderPPBPerSecond * n)
        let ticks = Int128(clockHz) * (whole + part) / (second * second)
        return offsetTicks &+ UInt64(clamping: max(0, ticks))
    }

    /// The first host ns at which the board clock reads `tick` or later (boot for ticks at or before the
    /// boot count), so `ticks(atHostNs: hostNs(atTick: t)) >= t` always holds and one ns earlier it does not.
    public func hostNs(atTick tick: UInt64) -> UInt64 {
        guard tick > offsetTicks else { return bootNs }
        // Newton steps on the exact function land within a tick; a bisection then finds the first ns.
        var ns = bootNs &+ UInt64(Double(tick - offsetTicks) * 1e9 / Double(clockHz))
        for _ in 0..<4 {
            let miss = Double(tick) - Double(ticks(atHostNs: ns))
            if abs(miss) < 1 { break }
            let rate = Double(clockHz) * (1 + driftPPM(atHostNs: ns) / 1e6) / 1e9
            ns = UInt64(max(Double(bootNs), Double(ns) + miss / rate))
        }
        var width = UInt64(2e9 / Double(clockHz)) + 2
        var lo = ns > bootNs + width ? ns - width : bootNs
        var hi = ns &+ width
        while ticks(atHostNs: hi) < tick { hi &+= width; width &*= 2 }
        while lo > bootNs && ticks(atHostNs: lo) >= tick { lo = lo > bootNs + width ? lo - width : bootNs; width &*= 2 }
        if ticks(atHostNs: lo) >= tick { return lo }
        // ticks(lo) < tick <= ticks(hi)
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if ticks(atHostNs: mid) >= tick { hi = mid } else { lo = mid }
        }
        return hi
    }
}
