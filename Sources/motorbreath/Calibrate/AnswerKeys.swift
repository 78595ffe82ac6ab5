// The calibration's answers from the keyboard: space or enter = yes (I feel it), n = no, q = quit.
// A terminal is put in raw mode (given back on every exit); from a pipe the same bytes are read, so a
// script can answer too. Ctrl-C is a signal, seen while waiting.
// SPDX-License-Identifier: Apache-2.0

import Calibration
import Glibc

final class AnswerKeys {
    private var original: termios?

    init() {
        var t = termios()
        guard isatty(0) == 1, tcgetattr(0, &t) == 0 else { return }
        original = t
        rawMode(t)  // reads return after 0.1 s: a signal is seen
    }

    var isTerminal: Bool { original != nil }

    /// Discards keys typed while the motor played (an early answer would belong to no trial).
    func drain() {
        guard isTerminal else { return }
        tcflush(0, TCIFLUSH)
    }

    /// Waits for an answer (nil: end of input, or a signal).
    func next() -> TrialAnswer? {
        var byte: UInt8 = 0
        while Signals.pending == 0 {
            let n = read(0, &byte, 1)
            if n == 0 && !isTerminal { return nil }  // end of a pipe
            if n < 0 && errno != EINTR && errno != EAGAIN { return nil }
            guard n == 1 else { continue }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "y"), UInt8(ascii: "Y"): return .yes
            case UInt8(ascii: "n"), UInt8(ascii: "N"): return .no
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): return .quit
            default: continue
            }
        }
        return nil
    }

    func restore() {
        guard var t = original else { return }
        tcsetattr(0, TCSANOW, &t)
        original = nil
    }
}
