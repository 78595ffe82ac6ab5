// The one signal path of every command that touches a board: SIGINT, SIGTERM and SIGHUP are latched for
// the playing loops to poll (they stop, motor off, and exit 128 + the signal), and a command still running
// a grace period later (blocked in a call that cannot poll) has its motors stopped and exits anyway.
// SPDX-License-Identifier: Apache-2.0

import Glibc
import HostPlatform
import Synchronization

/// The stop a person or a supervisor asks for with a signal, for every command that touches a board.
///
/// `install()` latches SIGINT, SIGTERM and SIGHUP: a loop that polls ``pending`` (a session's
/// `shouldStop`) stops with the motor off and exits with ``exitCode`` (128 + the signal: 130 for Ctrl-C,
/// 143 for SIGTERM, 129 for SIGHUP). A command that is blocked where it cannot poll (opening a FIFO nobody
/// reads, a board that stopped answering) is not left running: ``graceMs`` after the signal the forced-exit
/// actions run (each board's emergency STOP, the terminal given back) and the process exits with the same
/// code. So every command ends within about a second of the first signal, whatever it was doing.
///
///     StopSignal.install()
///     let token = StopSignal.onForcedExit { link.write(stopFrame) }
///     defer { StopSignal.remove(token) }
///     while StopSignal.pending == 0 { ... }
///     if StopSignal.pending != 0 { exit(StopSignal.exitCode) }
public enum StopSignal {
    /// The signal received (0: none yet).
    private static let received = Atomic<Int32>(0)
    /// How long a command has to stop by itself after the signal before it is made to, ms.
    public static let graceMs = 700
    private static let actions = ForcedExitActions()
    nonisolated(unsafe) private static var wakeup = sem_t()
    private static let installed = Atomic<Bool>(false)

    /// Latches SIGINT, SIGTERM and SIGHUP (unblocked first: a parent may have spawned us with them blocked)
    /// and ignores SIGPIPE; starts the watcher that enforces the grace period. Idempotent.
    public static func install() {
        unblock([SIGINT, SIGTERM, SIGHUP])
        if installed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            sem_init(&wakeup, 0, 0)
            pthread_detach(startThread { watch() })
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { sig in
            // The first signal decides the exit code; sem_post is async-signal-safe.
            _ = StopSignal.received.compareExchange(expected: 0, desired: sig, ordering: .relaxed)
            sem_post(&StopSignal.wakeup)
        }
        // SA_RESTART: no call elsewhere sees EINTR; one blocked for good is ended by the watcher instead.
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        for s in [SIGINT, SIGTERM, SIGHUP] { sigaction(s, &action, nil) }
        signal(SIGPIPE, SIG_IGN)
    }

    /// The signal received so far (0: none).
    public static var pending: Int32 { received.load(ordering: .relaxed) }

    /// True once a stop was asked for by a signal (for a session's `shouldStop`).
    public static var requested: Bool { pending != 0 }

    /// The shell convention: 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM).
    public static var exitCode: Int32 { 128 + pending }

    /// Adds an action run if the command has not exited `graceMs` after a signal (best effort: an
    /// emergency STOP to a board, the terminal given back). Returns a token for ``remove(_:)``.
    @discardableResult
    public static func onForcedExit(_ action: @escaping @Sendable () -> Void) -> Int { actions.add(action) }

    /// Removes a forced-exit action (its board is closed).
    public static func remove(_ token: Int) { actions.remove(token) }

    /// For tests: the latch as if `signal` had arrived (the watcher is not woken).
    public static func simulate(_ signal: Int32) { received.store(signal, ordering: .relaxed) }

    /// Waits for the first signal, gives the command its grace period, then stops the motors and exits.
    private static func watch() {
        while sem_wait(&wakeup) != 0 {}
        var want = timespec(tv_sec: graceMs / 1000, tv_nsec: (graceMs % 1000) * 1_000_000)
        var left = timespec()
        while nanosleep(&want, &left) != 0 { want = left }
        actions.runAll()
        _exit(exitCode)
    }

    private static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

/// The forced-exit actions, under a lock (added and removed by commands, run by the watcher).
private final class ForcedExitActions: @unchecked Sendable {
    private let lock = Mutex()
    private var actions: [Int: @Sendable () -> Void] = [:]
    private var next = 0

    func add(_ action: @escaping @Sendable () -> Void) -> Int {
        lock.withLock {
            next += 1
            actions[next] = action
            return next
        }
    }

    func remove(_ token: Int) { lock.withLock { _ = actions.removeValue(forKey: token) } }

    func runAll() {
        let all = lock.withLock { actions.sorted { $0.key < $1.key }.map(\.value) }
        for action in all { action() }
    }
}
