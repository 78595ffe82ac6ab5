// A tiny pthread mutex wrapper for the link classes (usable from any thread).

import Glibc

/// A non-recursive lock.
public final class Mutex: @unchecked Sendable {
    private var m = pthread_mutex_t()

    public init() { pthread_mutex_init(&m, nil) }
    deinit { pthread_mutex_destroy(&m) }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&m)
        defer { pthread_mutex_unlock(&m) }
        return try body()
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
