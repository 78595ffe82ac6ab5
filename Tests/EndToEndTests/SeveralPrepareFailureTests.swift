// Several boards, one of which never answers or whose port does not open: --json still names every board's
// place (--spread, --actuator, as given on the command line) and says which motors were confirmed off. The
// oracle: the simulated board answers its STOP, the silent pty (held by the test, nothing behind it) cannot.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SerialLink
import TestSupport
import Testing

@Suite(.tags(.realTime), .timeLimit(.minutes(3))) struct SeveralPrepareFailureTests {
    @Test func aSilentBoardEndsThePlayTheOthersMotorConfirmedOff() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let r = try runMotorbreath(["--board", "a=sim", "--board", "b=\(pty.slavePath)", "--spread", "rise", "--actuator", "b:strength=0.5,offset=100",
                                    "--boot-wait", "300", "--pattern", "1-0-1", "--json", "--quiet"], timeout: 30)
        #expect(r.status == 1)
        let report = try jsonObject(r.stdout)
        let boards = report["boards"] as? [[String: Any]] ?? []
        #expect(boards.compactMap { $0["name"] as? String } == ["a", "b"])
        #expect(report["spread"] as? String == "rise:0.5")
        #expect(boards.map { $0["at"] as? Double } == [0, 1] && boards.map { $0["strength"] as? Double } == [1, 0.5]
                && boards.map { $0["offset_ms"] as? Int } == [0, 100], "\(boards.map { ($0["at"], $0["strength"], $0["offset_ms"]) })")
        let off = boards.map { ($0["report"] as? [String: Any])?["motor_off_at_exit"] as? Bool }
        #expect(off == [true, false], "motor off at exit: \(off)")
    }
}

@Suite(.tags(.realTime), .timeLimit(.minutes(1))) struct SeveralPortFailureTests {
    /// A port that does not open: the report still names every board's place.
    @Test func aMissingPortsReportStillPlacesEveryBoard() throws {
        let r = try runMotorbreath(["--board", "a=sim", "--board", "b=/dev/motorbreath-no-such-port", "--spread", "rise:0.3",
                                    "--actuator", "a:strength=0.6", "--pattern", "1-0-1", "--json", "--quiet"], timeout: 30)
        #expect(r.status == 1)
        let report = try jsonObject(r.stdout)
        let boards = report["boards"] as? [[String: Any]] ?? []
        #expect(report["spread"] as? String == "rise:0.3")
        #expect(boards.map { $0["at"] as? Double } == [0, 1] && boards.map { $0["strength"] as? Double } == [0.6, 1], "\(boards.map { ($0["at"], $0["strength"]) })")
    }
}
