// A thread of its own that keeps the board's failsafe fed while the session's loop is busy or stalled
// (rendering, a blocked terminal write, a loaded machine), so the failsafe only fires when the host is
// really gone. It sends nothing while the loop's own traffic (frames, clock requests) keeps flowing.

import Glibc
import SerialLink

/// Sends a HEARTBEAT whenever the channel has been quiet for `idleMs`. It sleeps until the channel would
/// have been quiet that long (at least `checkMs`, at most `idleMs`), so while the loop's own traffic
/// flows it wakes about once per `idleMs`, not every few milliseconds; `stop()` wakes it at once.
final class KeepAlive: @unchecked Sendable {
    private let channel: BoardChannel
    private let idleNs: UInt64
    private let checkNs: UInt64
    private var mutex = pthread_mutex_t()
    private var cond = pthread_cond_t()
    private var running = true
    private var thread: pthread_t?

    init(channel: BoardChannel, idleMs: Int, checkMs: Int = 5) {
        self.channel = channel
        idleNs = UInt64(idleMs) * 1_000_000
        checkNs = UInt64(min(checkMs, idleMs)) * 1_000_000
        pthread_mutex_init(&mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(&cond, &attr)
        pthread_condattr_destroy(&attr)
        let box = Unmanaged.passRetained(self)
        var t = pthread_t()
        pthread_create(&t, nil, { arg in
            let me = Unmanaged<KeepAlive>.fromOpaque(arg!).takeRetainedValue()
            me.run()
            return nil
        }, box.toOpaque())
        thread = t
    }

    /// Waits `ns` or until `stop()`; false once stopped.
    private func wait(_ ns: UInt64) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        let deadline = MonotonicClock.nowNs() + ns
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while running && MonotonicClock.nowNs() < deadline {
            if pthread_cond_timedwait(&cond, &mutex, &ts) == ETIMEDOUT { break }
        }
        return running
    }

    private func run() {
        var next = checkNs
        while wait(next) {
            next = min(max(channel.keepAlive(idleNs: idleNs), checkNs), idleNs)
        }
    }

    /// Stops the thread and waits for it (no HEARTBEAT is sent after this returns).
    func stop() {
        pthread_mutex_lock(&mutex)
        running = false
        pthread_cond_broadcast(&cond)
        pthread_mutex_unlock(&mutex)
        if let t = thread {
            pthread_join(t, nil)
            thread = nil
        }
    }

    deinit {
        stop()
        pthread_cond_destroy(&cond)
        pthread_mutex_destroy(&mutex)
    }
}
