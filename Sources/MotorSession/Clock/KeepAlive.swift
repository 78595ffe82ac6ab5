// A thread of its own that keeps the board's failsafe fed while the session's loop is busy or stalled
// (rendering, a blocked terminal write, a loaded machine), so the failsafe only fires when the host is
// really gone. It sleeps on a watchdog timer every write re-arms, so while the loop's own traffic (frames,
// clock requests) flows it neither sends nor wakes.
// SPDX-License-Identifier: Apache-2.0

import CWatchdog
import Glibc
import SerialLink

/// Sends a HEARTBEAT whenever the channel has been quiet for `idleMs`. Every write to the channel re-arms
/// its watchdog for `idleMs` later, so the thread wakes only after `idleMs` of quiet (or `retryMs` after a
/// HEARTBEAT that could not be written); `stop()` wakes it at once.
final class KeepAlive: @unchecked Sendable {
    private let channel: BoardChannel
    private let watchdog: Watchdog
    private let retryNs: UInt64
    private var thread: pthread_t?
    private let idLock = Mutex()
    private var id: Int32 = 0

    /// Nil when the watchdog cannot be opened (out of file descriptors): the session's loop then sends its
    /// own heartbeats, as in virtual time, and a stall of the loop lets the failsafe stop the motor.
    init?(channel: BoardChannel, idleMs: Int, retryMs: Int = 5) {
        guard let watchdog = Watchdog(idleNs: UInt64(idleMs) * 1_000_000) else { return nil }
        self.channel = channel
        self.watchdog = watchdog
        retryNs = UInt64(min(retryMs, idleMs)) * 1_000_000
        channel.attach(watchdog)
        watchdog.arm(ns: retryNs)  // the first look: the channel may already have been quiet a while
        thread = startThread { self.run() }
    }

    /// The thread's kernel id once it runs (0 before): its wake-ups are counted in /proc/self/task/<id>.
    var threadID: Int32 { idLock.withLock { id } }

    private func run() {
        // Ahead of ordinary work where the system allows it: a loaded machine (builds at nice 10 on both
        // cores) can otherwise keep this thread off the CPU past a 20 ms failsafe. The channel's write lock
        // inherits priority, so a loop thread holding it is not what keeps this one waiting. (Before the
        // id is published: whoever reads the id sees the thread's policy settled.)
        runAheadOfOrdinaryWork()
        idLock.withLock { id = mb_thread_id() }
        while watchdog.wait() {
            channel.keepAlive(retryNs: retryNs)
        }
    }

    /// Stops the thread and waits for it (no HEARTBEAT is sent after this returns).
    func stop() {
        guard let t = thread else { return }
        watchdog.stop()
        pthread_join(t, nil)
        thread = nil
        channel.detach(watchdog)
    }

    deinit { stop() }
}
