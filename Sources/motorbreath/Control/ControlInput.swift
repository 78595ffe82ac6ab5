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
        var raw = t
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 1  // reads return after 0.1 s: the thread sees `stop`
        }
        tcsetattr(0, TCSANOW, &raw)
        pthread_detach(startThread { self.read(into: self.hub) })
    }

    private func read(into hub: ControlHub) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16)
        while lock.withLock({ running }) {
            let n = Glibc.read(0, &buffer, 16)
            if n < 0 && errno != EINTR && errno != EAGAIN { return }
            if n > 0 { pending += buffer[0..<n] }
            while !pending.isEmpty {
                if pending[0] == 0x1B {
                    guard pending.count >= 3 else { break }  // the rest of an arrow key is on its way
                    if pending[1] == UInt8(ascii: "[") {
                        switch pending[2] {
                        case UInt8(ascii: "A"): hub.key(.up)
                        case UInt8(ascii: "B"): hub.key(.down)
                        case UInt8(ascii: "C"): hub.key(.right)
                        case UInt8(ascii: "D"): hub.key(.left)
                        default: break
                        }
                    }
                    pending.removeFirst(3)
                    continue
                }
                switch pending.removeFirst() {
                case UInt8(ascii: " "): hub.key(.space)
                case UInt8(ascii: "f"), UInt8(ascii: "F"): hub.key(.finish)
                case UInt8(ascii: "q"), UInt8(ascii: "Q"): hub.key(.quit)
                default: break
                }
            }
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
