// A port where no board answers: one line after the boot wait it names, and nothing more sent than HELLOs
// and one STOP. The oracle is the bytes that reached the far end of a pty the test holds (no board there).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc
import MotorWire
import SerialLink
import TestSupport
import Testing

@Suite(.tags(.realTime), .timeLimit(.minutes(3))) struct NoBoardTests {
    @Test func aSilentPortGetsHellosAndOneStopThenOneLine() throws {
        let pty = try PseudoTerminal()  // the test holds the far end and never answers
        defer { pty.close() }
        let r = try runMotorbreath(["--port", pty.slavePath, "--boot-wait", "1000", "--pattern", "1-0-1", "--quiet"], timeout: 30)
        #expect(r.status == 1)
        #expect(r.stderr == "motorbreath: no motorbreath board answered on \(pty.slavePath) within 1000 ms (is the firmware flashed and the baud rate right?)\n")
        var decoder = FrameDecoder()
        var sent: [MessageType] = []
        while let bytes = try? pty.read(maxBytes: 65_536, timeoutMs: 50), !bytes.isEmpty {
            for b in bytes {
                if case .packet(let p)? = decoder.push(b), let type = MessageType(rawValue: p.type) { sent.append(type) }
            }
        }
        #expect(sent.filter { $0 == .hello }.count >= 2, "HELLO is sent again while waiting: \(sent)")
        // No board ever answered: STOP goes out once, not retried for seconds (it was 3 times, 1 s apart).
        #expect(sent.filter { $0 == .stop }.count == 1, "\(sent)")
        #expect(Set(sent).isSubset(of: [.hello, .stop]), "\(sent)")
    }
}
