// SIGINT/SIGTERM latch: the streaming loop polls it, sends STOP and exits 130/143.

import Glibc
import Synchronization

enum Signals {
    static let received = Atomic<Int32>(0)

    /// Installs handlers for SIGINT and SIGTERM that only record the signal, and unblocks both:
    /// a parent (a test runner, a supervisor) may have spawned us with them blocked.
    static func install() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        let handler: @convention(c) (Int32) -> Void = { sig in Signals.received.store(sig, ordering: .relaxed) }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        signal(SIGPIPE, SIG_IGN)
    }

    static var pending: Int32 { received.load(ordering: .relaxed) }

    /// The shell convention: 128 + signal number.
    static var exitCode: Int32 { 128 + pending }
}
