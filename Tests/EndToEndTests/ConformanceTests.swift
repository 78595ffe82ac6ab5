// The conformance suite against boards in their own processes behind real ptys: the simulated board
// (ERM and LRA) passes every clause, and a board broken on purpose fails the clause it breaks and only
// that one (so the suite is not passing boards it should not, nor failing the wrong clause), saying
// what it expected and what came. A board of revision 1.0 is judged by the clauses of 1.0.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct ConformanceTests {
    struct Run {
        var status: Int32
        var failed: [String]
        var notApplicable: [String]
        var passed: Int
        var revision: String
        /// Each clause's detail, by id.
        var details: [String: String]
    }

    /// `conform --json [conformArguments]` against a fresh `sim-board` with `boardArguments`.
    func conform(_ boardArguments: [String], _ conformArguments: [String] = []) throws -> Run {
        let board = try SimBoardProcess(arguments: boardArguments)
        defer { board.kill() }
        let r = try runMotorbreath(["conform", "--json", "--port", board.ptyPath] + conformArguments, timeout: 120)
        let report = try jsonObject(r.stdout)
        let results = try #require(report["results"] as? [[String: Any]])
        func ids(_ outcome: String) -> [String] {
            results.filter { $0["outcome"] as? String == outcome }.compactMap { $0["id"] as? String }
        }
        var details: [String: String] = [:]
        for r in results { if let id = r["id"] as? String { details[id] = r["detail"] as? String ?? "" } }
        let failed = ids("fail")
        print("conform \(boardArguments) \(conformArguments): \(report["passed"] ?? "?") passed, failed \(failed), \(report["seconds"] ?? "?") s")
        for id in failed { print("  \(id): \(details[id] ?? "")") }
        return Run(status: r.status, failed: failed, notApplicable: ids("n/a"), passed: report["passed"] as? Int ?? 0,
                   revision: report["revision"] as? String ?? "", details: details)
    }

    /// The ERM board runs the whole suite; the LRA board the clauses its motor changes (conformScope).
    @Test(arguments: [["--motor", "erm"], ["--motor", "lra"]])
    func theSimulatedBoardPassesEveryClause(arguments: [String]) throws {
        let whole = arguments == ["--motor", "erm"]
        let r = try conform(arguments, conformScope(wholeSuite: whole))
        #expect(r.status == 0)
        #expect(r.failed.isEmpty)
        #expect(r.passed >= (whole ? 40 : 4))
        #expect(r.revision == "1.5")
    }

    /// A sim-board process carrying a motor file (its accelerometer: capability bit 4) passes the sensor's
    /// clauses; each sensor breakage fails its own clause and only that.
    @Test(arguments: [("", ""), ("samples-out-of-order", "sensor.seq"), ("samples-ticks-off-by-a-batch", "sensor.clock")])
    func aBoardWithASensorIsHeldToTheSensorClauses(breakage: String, clause: String) throws {
        let file = repository.appendingPathComponent("hardware/motors/erm-coin-10mm.json").path
        let r = try conform(["--motor-file", file] + (breakage.isEmpty ? [] : ["--break", breakage]), ["--only", "sensor"])
        #expect(r.failed == (clause.isEmpty ? [] : [clause]))
        #expect(r.status == (clause.isEmpty ? 0 : 1))
        #expect(r.passed >= (clause.isEmpty ? 7 : 6) && r.notApplicable.isEmpty, "\(r.notApplicable)")
    }

    @Test(arguments: [("failsafe-report", "failsafe.fires"), ("window-edge", "frames.window"), ("held-halved", "clock.hold")])
    func aBrokenBoardFailsTheClauseItBreaks(breakage: String, clause: String) throws {
        // The clauses of the section the fault concerns (every clause once: theSimulatedBoardPasses...).
        let section = String(clause.prefix { $0 != "." })
        let r = try conform(["--break", breakage], ["--only", section])
        #expect(r.status == 1)
        #expect(r.failed == [clause])
        let detail = r.details[clause] ?? ""
        #expect(detail.contains("expected") && detail.contains("got"), "\(detail)")
    }

    /// The blind spots: each broken board fails its clause alone among the clauses of what it breaks
    /// (`--only`, so each costs seconds, not the whole suite), and the failure says what it expected.
    @Test(arguments: [
        ("half-drive-u8", "drive.levels", ["drive", "playback"]),
        ("reverse-unannounced", "drive.reverse", ["drive", "message"]),
        ("payload-size-uncounted", "message.payload-size", ["framing", "message"]),
    ])
    func aBoardBrokenInABlindSpotFailsItsClause(breakage: String, clause: String, only: [String]) throws {
        let r = try conform(["--break", breakage], only.flatMap { ["--only", $0] })
        #expect(r.status == 1)
        #expect(r.failed == [clause])
        let detail = r.details[clause] ?? ""
        #expect(detail.contains("expected") && detail.contains("got"), "\(detail)")
    }

    /// A board written to revision 1.0 (announces no revision, lacks what 1.1 added) passes the clauses of
    /// 1.0 and is not failed on later ones; held to 1.1 it fails exactly those it lacks.
    @Test func aRevision10BoardIsJudgedByRevision10() throws {
        let r = try conform(["--break", "revision-1.0"])
        #expect(r.revision == "1.0")
        #expect(r.status == 0)
        #expect(r.failed.isEmpty)
        #expect(r.passed >= 20)
        for id in ["message.payload-size", "stop.deferred", "message.revision", "status.lost-bytes", "clock.hold"] {
            #expect(r.notApplicable.contains(id), "\(id)")
            #expect(r.details[id]?.contains("introduced in revision 1.") == true, "\(id): \(r.details[id] ?? "")")
        }
        // Its motor off after STOP and after silence is every board's promise: checked, by asking.
        for id in ["failsafe.fires", "stop.now"] {
            #expect(!r.notApplicable.contains(id) && r.details[id]?.contains("revision 1.1's, not held") == true, "\(id): \(r.details[id] ?? "")")
        }
        let held = try conform(["--break", "revision-1.0"], ["--revision", "1.1"])
        #expect(held.revision == "1.1")
        #expect(held.status == 1)
        #expect(Set(held.failed) == ["message.payload-size", "stop.deferred", "failsafe.fires"])
    }

    /// A board of revision 1.0 whose failsafe leaves the motor on fails failsafe.fires (it once passed: the
    /// clause was not applicable to a board that announces no revision), and nothing else.
    @Test func aRevision10BoardWithItsMotorOnAfterSilenceFails() throws {
        let r = try conform(["--break", "revision-1.0-failsafe-on"])
        #expect(r.revision == "1.0")
        #expect(r.status == 1)
        #expect(r.failed == ["failsafe.fires"], "\(r.failed)")
        #expect(r.details["failsafe.fires"]?.contains("output 0") == true, "\(r.details["failsafe.fires"] ?? "")")
    }
}
