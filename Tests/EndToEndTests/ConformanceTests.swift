// The conformance suite against boards in their own processes behind real ptys: the simulated board
// (ERM and LRA) passes every clause, and a board broken on purpose fails the clause it breaks and only
// that one (so the suite is not passing boards it should not, nor failing the wrong clause).

import Foundation
import TestSupport
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct ConformanceTests {
    /// `conform --json` against a fresh `sim-board` with `boardArguments`: (exit status, failed clause ids).
    func conform(_ boardArguments: [String]) throws -> (status: Int32, failed: [String], passed: Int) {
        let board = try SimBoardProcess(arguments: boardArguments)
        defer { board.kill() }
        let r = try runMotorbreath(["conform", "--json", "--port", board.ptyPath], timeout: 120)
        let report = try jsonObject(r.stdout)
        let results = try #require(report["results"] as? [[String: Any]])
        let failed = results.filter { $0["outcome"] as? String == "fail" }.compactMap { $0["id"] as? String }
        print("conform \(boardArguments): \(report["passed"] ?? "?") passed, failed \(failed), \(report["seconds"] ?? "?") s")
        return (r.status, failed, report["passed"] as? Int ?? 0)
    }

    @Test(arguments: [["--motor", "erm"], ["--motor", "lra"]])
    func theSimulatedBoardPassesEveryClause(arguments: [String]) throws {
        let r = try conform(arguments)
        #expect(r.status == 0)
        #expect(r.failed.isEmpty)
        #expect(r.passed >= 40)
    }

    @Test(arguments: [("failsafe-report", "failsafe.fires"), ("window-edge", "frames.window")])
    func aBrokenBoardFailsTheClauseItBreaks(breakage: String, clause: String) throws {
        let r = try conform(["--break", breakage])
        #expect(r.status == 1)
        #expect(r.failed == [clause])
    }
}
