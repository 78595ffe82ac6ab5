// Keys in a terminal (raw mode, given back on every exit path: normal end, error, Ctrl-C, SIGTERM,
// SIGHUP). JSON lines on standard input are MotorControl's StdinControl.
// SPDX-License-Identifier: Apache-2.0

import Glibc
import MotorControl
import SerialLink
import Synchronization

/// Keys from a terminal on standard input: no echo, no line buffering (signals still work: Ctrl-C is
/// SIGINT). The terminal's settings come back in `restore()`, at exit, and from the signal handlers.
final class KeyControl: @unchecked Sendable {
    private static let saved = Mutex()
    nonisolated(unsafe) private static var original: termios?
    private let lock = Mutex()
    private var running = true
    private let hub: ControlHub

    /// Nil when standard input is not a terminal.
    init?(hub: ControlHub) {
        guard isatty(0) == 1 else { return nil }
        self.hub = hub
        var t = termios()
        guard tcgetattr(0, &t) == 0 else { return nil }
        KeyControl.saved.withLock { KeyControl.original = t }
        atexit { KeyControl.restore() }
        rawMode(t)  // reads return after 0.1 s: the thread sees `stop`
        pthread_detach(startThread { self.read(into: self.hub) })
    }

    private func read(into hub: ControlHub) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16)
        while lock.withLock({ running }) {
            let n = Glibc.read(0, &buffer, 16)
            if n < 0 && errno != EINTR && errno != EAGAIN { return }
            if n > 0 { pending += buffer[0..<n] }
            for key in ControlHub.Key.take(from: &pending) { hub.key(key) }
        }
    }

    func stop() {
        lock.withLock { running = false }
        KeyControl.restore()
    }

    /// Gives the terminal its settings back (idempotent; async-signal-safe enough: one tcsetattr).
    static func restore() {
        guard var t = original else { return }
        tcsetattr(0, TCSANOW, &t)
    }
}

/// Standard input's terminal (its settings `t`) without echo or line buffering, reads returning after 0.1 s
/// with or without a key (so a stop or a signal is seen).
func rawMode(_ t: termios) {
    var raw = t
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
        cc[Int(VMIN)] = 0
        cc[Int(VTIME)] = 1
    }
    tcsetattr(0, TCSANOW, &raw)
}
