// The page's WebSocket speaks text: a binary message is refused with close code 1003 (unsupported data)
// and the connection ends, where FlyingFox's server ignored it in silence. A raw client on loopback, no
// board (real-time tier: the server needs a free concurrency thread).
// SPDX-License-Identifier: Apache-2.0

import Breath
import BreathWeb
import Foundation
import MotorControl
import MotorSession
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(2)))
struct BinaryFrameTests {
    @Test func aBinaryMessageClosesWith1003() async throws {
        let hub = ControlHub(inbox: ControlInbox(), pattern: try BreathPattern.parse("box"), strength: 1, sharpness: 0.3)
        let (server, port) = try await startServer(hub)
        defer { Thread { server.stop() }.start() }
        struct Seen: Sendable { var status: String?, clock: String, close: (opcode: UInt8, payload: [UInt8])?, ended: Bool }
        let seen = try await onThread { () throws -> Seen in
            let page = try PageDropTests.RawSocket(port: port)
            let status = page.handshake()
            page.sendFrame(opcode: 0x1, Array(#"{"command":"clock","id":"before"}"#.utf8))
            var clock = ""
            while !clock.contains(#""id":"before""#), let text = page.message() { clock = text }
            page.sendFrame(opcode: 0x2, Array(#"{"command":"stop"}"#.utf8))  // a command, but binary
            var close: (opcode: UInt8, payload: [UInt8])?
            while let frame = page.frame() {
                if frame.opcode == 0x8 { close = frame; break }
            }
            page.sendFrame(opcode: 0x8, Array(close?.payload.prefix(2) ?? []))  // the close handshake's answer
            return Seen(status: status, clock: clock, close: close, ended: page.frame() == nil)
        }
        #expect(seen.status == "HTTP/1.1 101 Switching Protocols")
        #expect(seen.clock.contains(#""event":"clock""#))
        let code = (seen.close?.payload.count ?? 0) >= 2 ? Int(seen.close!.payload[0]) << 8 | Int(seen.close!.payload[1]) : 0
        #expect(code == 1003, "close \(seen.close.map { "\($0.payload)" } ?? "none")")
        #expect(seen.ended)
    }
}
