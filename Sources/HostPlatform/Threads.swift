// Threads of their own, and a condition to wait on with a deadline: the two pthread patterns the links,
// the session's keep-alive, the simulated board and the control interfaces share.
// SPDX-License-Identifier: Apache-2.0

import Glibc

/// What a new thread runs (the C entry point cannot capture it).
private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// Runs `body` on a new thread, which keeps what `body` captures alive until it returns. Join the thread
/// (`pthread_join`) to wait for it, or detach it (`pthread_detach`).
public func startThread(_ body: @escaping () -> Void) -> pthread_t {
    var t = pthread_t()
    pthread_create(&t, nil, { arg in
        Unmanaged<ThreadBody>.fromOpaque(arg!).takeRetainedValue().run()
        return nil
    }, Unmanaged.passRetained(ThreadBody(body)).toOpaque())
    return t
}

/// Asks the kernel to run the calling thread ahead of ordinary work (SCHED_FIFO at `priority`, low among
/// real-time priorities): for a thread that sleeps nearly always and must wake on time whatever else the
/// machine runs, such as the one feeding a board's failsafe. False where the kernel refuses (without
/// CAP_SYS_NICE and with RLIMIT_RTPRIO 0, an ordinary user's default): the thread keeps its priority.
@discardableResult
public func runAheadOfOrdinaryWork(priority: Int32 = 10) -> Bool {
    var param = sched_param()
    param.sched_priority = priority
    return pthread_setschedparam(pthread_self(), Int32(SCHED_FIFO), &param) == 0
}

/// A mutex with a condition variable on CLOCK_MONOTONIC: wait for a change, or until a deadline.
public final class TimedCondition: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var cond = pthread_cond_t()

    public init() {
        pthread_mutex_init(&mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(&cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(&cond)
        pthread_mutex_destroy(&mutex)
    }

    public func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }

    /// Inside `withLock`: sleeps until `broadcast()` or the CLOCK_MONOTONIC deadline; false once it has passed.
    public func wait(untilNs deadline: UInt64) -> Bool {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        return pthread_cond_timedwait(&cond, &mutex, &ts) != ETIMEDOUT
    }

    /// Inside `withLock`: wakes every waiter.
    public func broadcast() { pthread_cond_broadcast(&cond) }
}
