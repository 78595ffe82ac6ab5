// Signals: the SIGINT/SIGTERM/SIGHUP latch the streaming loops poll (STOP, then exit 130/143/129), the
// SIGWINCH flag the live line reads, and an immediate exit for commands that cannot poll (the terminal
// given back first).
// SPDX-License-Identifier: Apache-2.0

import Glibc
import Playback
import SafeOutput
import Synchronization

enum Signals {
    static let resized = Atomic<Bool>(false)

    /// The playback layer's signal path (``StopSignal``): SIGINT, SIGTERM and SIGHUP (the terminal closed,
    /// an ssh session dropped) are latched for the playing loops, which stop with the motor off; a command
    /// still running `StopSignal.graceMs` later gives the terminal back, stops the boards and exits.
    static func install() {
        StopSignal.install()
        StopSignal.onForcedExit {
            KeyControl.restore()
            Terminal.restoreFromSignalHandler()
        }
    }

    /// For commands with no loop that polls `pending` (render, benchmark): SIGINT, SIGTERM and SIGHUP give
    /// the cursor and colours back, remove an output file's temporary file, and exit at once with
    /// 128 + signal. Nothing else to undo: no hardware.
    static func exitRestoringTerminal() {
        unblock([SIGINT, SIGTERM, SIGHUP])
        let handler: @convention(c) (Int32) -> Void = { sig in
            Terminal.restoreFromSignalHandler()
            OutputFile.removeTemporaryFromSignalHandler()
            _exit(128 + sig)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        signal(SIGHUP, handler)
    }

    /// SIGWINCH sets `resized`; the live line reads the width again on its next redraw. SA_RESTART, and
    /// every poll/nanosleep in the links already loops on EINTR, so a resize never disturbs streaming.
    static func followResizes() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Signals.resized.store(true, ordering: .relaxed) }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGWINCH, &action, nil)
        unblock([SIGWINCH])
    }

    /// True once after each resize.
    static func takeResize() -> Bool { resized.exchange(false, ordering: .relaxed) }

    static var pending: Int32 { StopSignal.pending }

    /// The shell convention: 128 + signal number.
    static var exitCode: Int32 { StopSignal.exitCode }

    private static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
