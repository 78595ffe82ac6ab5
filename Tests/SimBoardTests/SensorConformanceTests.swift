// The sensor clauses of the conformance suite against the simulated board in process: with a (test-double)
// motor it passes every one; each sensor breakage fails its clause and only that; without a motor they are
// not applicable, saying so.
// SPDX-License-Identifier: Apache-2.0

import BoardConformance
import SerialLink
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct SensorConformanceTests {
    func run(motor: Bool = true, breakage: Breakage? = nil) throws -> ConformanceReport {
        var spec = SimBoardSpec()
        if motor { spec.physicalMotor = DriveOnX() }
        let (host, end) = InMemoryLink.pair()
        let board = SimulatedBoard(spec: spec, link: end)
        board.breakage = breakage
        board.start()
        defer { board.stop() }
        let report = Conformance.run(try Rig(link: host), only: ["sensor"])
        for r in report.results { print("\(breakage?.rawValue ?? "sound"): \(r.id) \(r.outcome): \(r.detail)") }
        return report
    }

    func ids(_ report: ConformanceReport, _ outcome: String) -> [String] {
        report.results.filter { $0.outcome == outcome }.map(\.id)
    }

    @Test func theSimulatedBoardWithASensorPassesEverySensorClause() throws {
        let r = try run()
        #expect(r.revision == "1.5")
        #expect(ids(r, "pass") == ["sensor.answer", "sensor.refused", "sensor.seq", "sensor.spacing", "sensor.clock",
                                   "sensor.stop", "sensor.silence"])
    }

    @Test(arguments: [(Breakage.samplesOutOfOrder, "sensor.seq"), (.samplesTicksOffByABatch, "sensor.clock")])
    func aBrokenSensorFailsTheClauseItBreaks(breakage: Breakage, clause: String) throws {
        let r = try run(breakage: breakage)
        #expect(ids(r, "fail") == [clause])
        let detail = r.results.first { $0.id == clause }?.detail ?? ""
        #expect(detail.contains("expected") && detail.contains("got"), "\(detail)")
    }

    @Test func withoutASensorTheClausesAreNotApplicable() throws {
        let r = try run(motor: false)
        #expect(ids(r, "n/a").count == 7 && r.failed == 0)
        #expect(r.results.allSatisfy { $0.detail.contains("capability bit 4 clear") })
    }
}
