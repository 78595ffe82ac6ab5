// Board-clock arithmetic, shared by the firmware and host tests: a free-running 32-bit hardware counter
// extended to 64 bits, and a span of board ticks converted to a wake-up timer's CPU cycles. Only
// wrapping arithmetic: nothing here can trap, whatever the counter reads.
// SPDX-License-Identifier: Apache-2.0

/// Extends a free-running 32-bit up-counter to a 64-bit tick count. Each reading adds the counter's
/// advance since the previous reading, modulo 2^32, so the extension never loses or doubles a wrap as
/// long as readings are less than 2^32 counts apart (268 s at 16 MHz; the firmware reads it on every
/// main-loop pass, at least every 50 ms). No interrupt is involved: a late interrupt cannot cost time.
public struct CounterExtension: Sendable {
    /// The 64-bit count at the last reading.
    public private(set) var ticks: UInt64
    private var lastRaw: UInt32

    /// Starts the 64-bit count at the counter's current value.
    public init(raw: UInt32) {
        ticks = UInt64(raw)
        lastRaw = raw
    }

    /// The 64-bit count for a new reading `raw` of the counter.
    public mutating func extend(_ raw: UInt32) -> UInt64 {
        ticks &+= UInt64(raw &- lastRaw)
        lastRaw = raw
        return ticks
    }
}

/// Converts a span of board ticks into the CPU cycles of a wake-up timer, rounded up so the wake is never
/// early and kept within `2 ... maxCycles`. Only wrapping arithmetic: it cannot trap, whatever it is given.
///
///     // 1 ms of a 1 MHz board clock on a 16 MHz CPU:
///     WakeDelay.cycles(from: 0, to: 1_000, clockHz: 1_000_000, cpuHz: 16_000_000, maxCycles: 0xFF_FFFF)  // 16_000
public enum WakeDelay {
    /// CPU cycles for a down-counter at `cpuHz` to span board ticks `now` ..< `wake` (board clock at
    /// `clockHz`), rounded up so the wake is never early, within `2 ... maxCycles`. A wake at or before
    /// `now` gives the minimum.
    public static func cycles(from now: UInt64, to wake: UInt64, clockHz: UInt32, cpuHz: UInt32,
                              maxCycles: UInt32) -> UInt32 {
        guard wake > now, clockHz > 0 else { return 2 }
        let ticks = wake &- now
        // Beyond the longest sleep; up to it, ticks * cpuHz <= maxCycles * clockHz < 2^56.
        let longest = UInt64(maxCycles) &* UInt64(clockHz) / UInt64(max(cpuHz, 1))
        if ticks > longest { return maxCycles }
        let cycles = (ticks &* UInt64(cpuHz) &+ UInt64(clockHz) &- 1) / UInt64(clockHz)
        return UInt32(truncatingIfNeeded: min(max(cycles, 2), UInt64(maxCycles)))
    }
}
