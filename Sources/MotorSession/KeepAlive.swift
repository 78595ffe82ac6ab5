// A thread of its own that keeps the board's failsafe fed while the session's loop is busy or stalled
// (rendering, a blocked terminal write, a loaded machine), so the failsafe only fires when the host is
// really gone. It sends nothing while the loop's own traffic (frames, clock requests) keeps flowing.
// SPDX-License-Identifier: Apache-2.0

import Glibc
import SerialLink

/// Sends a HEARTBEAT whenever the channel has been quiet for `idleMs`. It sleeps until the channel would
/// have been quiet that long (at least `checkMs`, at most `idleMs`), so while the loop's own traffic
/// flows it wakes about once per `idleMs`, not every few milliseconds; `stop()` wakes it at once.
final class KeepAlive: @unchecked Sendable {
    private let channel: BoardChannel
    private let idleNs: UInt64
    private let checkNs: UInt64
    private let condition = TimedCondition()
    private var running = true
    private var thread: pthread_t?

    init(channel: BoardChannel, idleMs: Int, checkMs: Int = 5) {
        self.channel = channel
        idleNs = UInt64(idleMs) * 1_000_000
        checkNs = UInt64(min(checkMs, idleMs)) * 1_000_000
        thread = startThread { self.run() }
    }

    /// Waits `ns` or until `stop()`; false once stopped.
    private func wait(_ ns: UInt64) -> Bool {
        condition.withLock {
            let deadline = MonotonicClock.nowNs() + ns
            while running && condition.wait(untilNs: deadline) {}
            return running
        }
    }

    private func run() {
        var next = checkNs
        while wait(next) {
            next = min(max(channel.keepAlive(idleNs: idleNs), checkNs), idleNs)
        }
    }

    /// Stops the thread and waits for it (no HEARTBEAT is sent after this returns).
    func stop() {
        condition.withLock {
            running = false
            condition.broadcast()
        }
        if let t = thread {
            pthread_join(t, nil)
            thread = nil
        }
    }

    deinit { stop() }
}
