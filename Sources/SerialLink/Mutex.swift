// A tiny pthread mutex wrapper for the link classes (usable from any thread).

import Glibc

/// A non-recursive lock.
public final class Mutex: @unchecked Sendable {
    private var m = pthread_mutex_t()

    public init() { pthread_mutex_init(&m, nil) }
    deinit { pthread_mutex_destroy(&m) }

    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(&m)
        defer { pthread_mutex_unlock(&m) }
        return try body()
    }

    /// Inside `withLock`: releases the lock while `body` runs (a sleep), then takes it again.
    public func unlockForWait(_ body: () -> Void) {
        pthread_mutex_unlock(&m)
        body()
        pthread_mutex_lock(&m)
    }
}

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
