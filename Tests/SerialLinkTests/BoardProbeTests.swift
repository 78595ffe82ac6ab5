// BoardProbe against a board that answers and an echo that does not.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorSession
import SerialLink
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct BoardProbeTests {
    @Test func anEchoIsNotABoard() throws {
        let pty = try PseudoTerminal()
        let stop = Mutex()
        nonisolated(unsafe) var running = true
        let thread = Thread {
            while stop.withLock({ running }) {
                if let b = try? pty.read(maxBytes: 4096, timeoutMs: 10), !b.isEmpty { try? pty.write(b) }
            }
        }
        thread.start()
        defer { stop.withLock { running = false } }
        if case .silent = BoardProbe.probe(path: pty.slavePath, timeoutMs: 600) {} else {
            Issue.record("an echoing pty was taken for a board")
        }
        if case .unavailable = BoardProbe.probe(path: "/nonexistent") {} else { Issue.record("a missing port probed") }
    }
}
