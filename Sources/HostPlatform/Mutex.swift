// A tiny pthread mutex wrapper (usable from any thread): the links, the session and the simulated board lock
// with it.
// SPDX-License-Identifier: Apache-2.0

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
