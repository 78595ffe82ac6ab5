// `motorbreath selftest --loopback` against a pty whose far end echoes, and against one that does not.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct SelftestTests {
    @Test func loopbackThroughAnEchoingPtyVerifiesEveryByte() throws {
        let echo = try SimBoardProcess(echo: true)
        defer { _ = echo.stop() }
        let r = try runMotorbreath(["selftest", "--loopback", "--port", echo.ptyPath, "--seconds", "0.5", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect((json["bytes"] as? Int ?? 0) > 10_000)
        #expect(json["mismatched_bytes"] as? Int == 0 && json["missing_bytes"] as? Int == 0)
        #expect(json["lost_pings"] as? Int == 0)
    }

    @Test func aBrokenLoopbackFailsWithOneLine() throws {
        let board = try SimBoardProcess()  // a board, not an echo: nothing comes back as sent
        defer { _ = board.stop() }
        let r = try runMotorbreath(["selftest", "--loopback", "--port", board.ptyPath, "--seconds", "0.2"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("loopback errors"))
    }
}
