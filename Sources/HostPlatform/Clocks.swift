// The host's time: CLOCK_MONOTONIC, the clock a session reads (real, or a simulation's virtual one), and a
// sleep that survives signals.
// SPDX-License-Identifier: Apache-2.0

import Glibc

/// CLOCK_MONOTONIC in nanoseconds.
public enum MonotonicClock {
    public static func nowNs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

/// Where the host session reads the time: the real monotonic clock, or a simulation's virtual one.
public protocol HostClock: Sendable {
    func nowNs() -> UInt64
}

/// CLOCK_MONOTONIC.
public struct SystemClock: HostClock {
    public init() {}
    public func nowNs() -> UInt64 { MonotonicClock.nowNs() }
}

/// Sleeps `ns` nanoseconds of real time (resuming after signals).
public func sleepNs(_ ns: UInt64) {
    var request = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
