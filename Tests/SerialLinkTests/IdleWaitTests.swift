// `readAfterIdle`: bytes arriving during the wait do not end it (they are all returned at its end), while
// `wake()` and `close()` do, at once.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SerialLink
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(2))) struct IdleWaitTests {
    /// Three bytes written 10, 20 and 30 ms into a 2 s wait come back together from that one call; a read
    /// that woke for bytes would return the first alone.
    @Test func bytesDuringTheWaitDoNotEndIt() throws {
        let pty = try PseudoTerminal()
        let link = try TTYLink(path: pty.slavePath)
        defer { link.close() }
        let writer = Thread {
            for b: UInt8 in 1...3 {
                Thread.sleep(forTimeInterval: 0.01)
                try? pty.write([b])
            }
        }
        writer.start()
        let got = try link.readAfterIdle(maxBytes: 16, timeoutMs: 2000)
        #expect(got == [1, 2, 3])
    }

    /// A 60 s wait ends on `wake()` (also one that came first: it stays pending) and on `close()`.
    @Test func wakeAndCloseEndTheWait() throws {
        let pty = try PseudoTerminal()
        let link = try TTYLink(path: pty.slavePath)
        for poke in [{ link.wake() }, { link.close() }] {
            let back = WakeTests.returns({ _ = try? link.readAfterIdle(maxBytes: 16, timeoutMs: 60_000) }, after: poke)
            #expect(back)
        }
    }

    /// A link that cannot wait on its waker alone reads as usual: the in-memory pair returns the first bytes.
    @Test func otherLinksReadAsUsual() throws {
        let (host, board) = InMemoryLink.pair()
        defer { host.close(); board.close() }
        try board.write([9])
        #expect(try host.readAfterIdle(maxBytes: 16, timeoutMs: 2000) == [9])
    }
}
