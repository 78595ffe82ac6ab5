// A read waiting on another thread returns as soon as the link is woken or closed, whatever its timeout.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SerialLink
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct WakeTests {
    /// Starts a 60 s read on another thread, wakes it with `poke`, and reports whether it came back.
    /// A wake before the read starts also counts (the wake stays pending), so there is no race.
    func readReturnsAfter(_ link: ByteLink, _ poke: () -> Void) -> Bool {
        WakeTests.returns({ _ = try? link.read(maxBytes: 16, timeoutMs: 60_000) }, after: poke)
    }

    /// Runs `wait` (a 60 s wait) on another thread, pokes it, and reports whether it came back within 20 s.
    static func returns(_ wait: @escaping @Sendable () -> Void, after poke: () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            wait()
            done.signal()
        }
        thread.start()
        poke()
        return done.wait(timeout: .now() + 20) == .success
    }

    @Test func wakeReturnsAWaitingPtyRead() throws {
        let pty = try PseudoTerminal()
        let link = try TTYLink(path: pty.slavePath)
        defer { link.close() }
        #expect(readReturnsAfter(link) { link.wake() })
        // The link still works afterwards.
        try pty.write([7])
        #expect(try link.read(maxBytes: 4, timeoutMs: 1000) == [7])
    }

    @Test func closeReturnsAWaitingPtyRead() throws {
        let pty = try PseudoTerminal()
        let link = try TTYLink(path: pty.slavePath)
        #expect(readReturnsAfter(link) { link.close() })
    }

    @Test func wakeReturnsAWaitingInMemoryRead() {
        let (host, board) = InMemoryLink.pair()
        defer { host.close(); board.close() }
        #expect(readReturnsAfter(host) { host.wake() })
    }
}
