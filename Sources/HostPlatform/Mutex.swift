// A tiny pthread mutex wrapper (usable from any thread): the links, the session and the simulated board lock
// with it.
// SPDX-License-Identifier: Apache-2.0

import Glibc

/// A non-recursive lock. `priorityInheritance`: a thread holding it runs, while a higher-priority thread
/// waits for it, at that thread's priority (so a real-time thread is never held up behind an ordinary one
/// that other work keeps off the CPU).
public final class Mutex: @unchecked Sendable {
    private var m = pthread_mutex_t()

    public convenience init() { self.init(priorityInheritance: false) }

    public init(priorityInheritance: Bool) {
        var attr = pthread_mutexattr_t()
        pthread_mutexattr_init(&attr)
        if priorityInheritance { pthread_mutexattr_setprotocol(&attr, Int32(PTHREAD_PRIO_INHERIT)) }
        pthread_mutex_init(&m, &attr)
        pthread_mutexattr_destroy(&attr)
    }
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
