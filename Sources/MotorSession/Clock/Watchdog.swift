// A one-shot timer a thread sleeps on until it fires or is stopped: the keep-alive's wake-up, re-armed by
// every write so that it fires only after `idleNs` of quiet (Linux timerfd and eventfd, through CWatchdog).
// SPDX-License-Identifier: Apache-2.0

import CWatchdog

/// A CLOCK_MONOTONIC one-shot timer and a stop signal. `arm` and `stop` are single syscalls and take no lock,
/// so any thread may call them while another sleeps in `wait()`.
final class Watchdog: @unchecked Sendable {
    private let fds: mb_watchdog
    /// How long after a write it fires (`kick()`).
    let idleNs: UInt64

    /// Nil when the descriptors cannot be opened (out of file descriptors).
    init?(idleNs: UInt64) {
        self.idleNs = idleNs
        var opened = mb_watchdog()
        guard mb_watchdog_open(&opened) == 0 else { return nil }
        fds = opened
    }

    /// Fires once `ns` from now, replacing any earlier arming.
    func arm(ns: UInt64) { _ = withUnsafePointer(to: fds) { mb_watchdog_arm($0, ns) } }

    /// Fires once `idleNs` from now: called at every write.
    func kick() { arm(ns: idleNs) }

    /// Sleeps until the timer fires (true) or `stop()` was called or the wait failed (false).
    func wait() -> Bool { withUnsafePointer(to: fds) { mb_watchdog_wait($0) } == 1 }

    /// Makes `wait()` return false, now and from then on.
    func stop() { _ = withUnsafePointer(to: fds) { mb_watchdog_stop($0) } }

    deinit {
        var closing = fds
        mb_watchdog_close(&closing)
    }
}
