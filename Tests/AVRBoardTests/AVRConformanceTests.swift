// The conformance suite (motorbreath conform, through the port alone) against the ATmega328P firmware in
// simavr, for every variant it builds: erm (a MOSFET), erm-hbridge (reverse drive), lra (its own carrier).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.emulated), .serialized, .timeLimit(.minutes(10))) struct AVRConformanceTests {
    @Test(arguments: ["erm", "erm-hbridge", "lra"])
    func theFirmwarePassesEveryClause(variant: String) throws {
        let board = try AVRBoard(variant: variant)
        defer { board.remove() }
        let whole = variant == "erm"  // the whole suite once; the other builds' own clauses
        let arguments = ["conform", "--json", "--port", board.port, "--baud", "\(avrBaud)"] + conformScope(wholeSuite: whole)
        let r = try runMotorbreath(arguments, timeout: 180)
        #expect(r.status == 0, "\(r.stderr)")
        let report = try jsonObject(r.stdout)
        let results = try #require(report["results"] as? [[String: Any]])
        let failed = results.filter { $0["outcome"] as? String == "fail" }
        let notApplicable = results.filter { $0["outcome"] as? String == "na" || $0["outcome"] as? String == "n/a" }
        print("conform avr-\(variant): \(report["passed"] ?? "?") of \(results.count) passed, \(failed.count) failed, "
              + "not applicable: \(notApplicable.map { "\($0["id"] ?? "")" }), \(report["seconds"] ?? "?") s")
        for f in failed { print("  FAIL \(f["id"] ?? "") \(f["detail"] ?? "")") }
        #expect(failed.isEmpty)
        #expect(report["revision"] as? String == "1.2")  // judged by the revision it announces, the current one
        #expect((report["passed"] as? Int ?? 0) >= (whole ? 40 : 4))
    }
}
