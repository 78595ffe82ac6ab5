// The conformance suite against the real firmware in QEMU, for every motor variant the repository
// builds (erm: a MOSFET; erm-hbridge: reverse drive; lra: the firmware's own carrier).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.emulated), .serialized, .timeLimit(.minutes(10))) struct EmulatedConformanceTests {
    /// The judge reads lateness only from details that give it; an early frame or anything else fails.
    @Test func latenessIsReadFromTheClausesDetails() {
        #expect(lateMs("frames 0... up to 20000 ticks late", clockHz: 20_000_000) == 1)
        #expect(lateMs("frame 0 output at 100040000, due 100000000, late_count 0", clockHz: 20_000_000) == 2)
        #expect(lateMs("later frames not on time: [\"frame 50 at 60000, due 20000\", \"frame 51 at 90000, due 10000\"]",
                       clockHz: 20_000_000) == 4)
        #expect(lateMs("stop at tick 192953292, frame 10 due at 192906010", clockHz: 20_000_000) > 2.3)
        #expect(lateMs("frame 3 at 100, due 200", clockHz: 20_000_000) == .infinity)  // early: a real failure
        #expect(lateMs("output 19660, expected 20000", clockHz: 20_000_000) == .infinity)
        #expect(lateMs("HEARTBEAT: expected STATUS within 500 ms, got nothing", clockHz: 20_000_000) == 500)
        #expect(lateMs("HEARTBEAT: expected STATUS within 500 ms, got NAK badMessage", clockHz: 20_000_000) == .infinity)
    }

    @Test(arguments: ["erm", "erm-hbridge", "lra"])
    func theFirmwarePassesEveryClause(motor: String) throws {
        let board = try EmulatedBoard(motor: motor)
        defer { board.stop() }
        let (r, qemuWaitMs) = try board.measuringQemuWait {
            // The whole suite once; the other builds' own clauses (TestSupport's conformScope).
            try runMotorbreath(["conform", "--json", "--port", board.port] + conformScope(wholeSuite: motor == "erm"), timeout: 180)
        }
        let report = try jsonObject(r.stdout)
        let results = try #require(report["results"] as? [[String: Any]])
        let failed = results.filter { $0["outcome"] as? String == "fail" }
        print("conform qemu-\(motor): \(report["passed"] ?? "?") passed, \(failed.count) failed, \(report["seconds"] ?? "?") s")
        for f in failed { print("  FAIL \(f["id"] ?? "") \(f["detail"] ?? "")") }
        // A frame (or a deferred stop) later on the board clock than a timing clause allows (1 ms; a
        // deferred stop 2 ms) is the emulator's wake-up when QEMU could not get a CPU: the firmware's
        // clock no longer stops while QEMU waits, so it shows. A failure that says only that (its detail
        // gives the tick and the due tick) is judged against QEMU's own wait, like the other emulated
        // timing checks; any other failure fails.
        let timing = failed.filter { lateMs($0["detail"] as? String ?? "", clockHz: 20_000_000).isFinite }
        let other = failed.filter { !lateMs($0["detail"] as? String ?? "", clockHz: 20_000_000).isFinite }
        #expect(other.isEmpty)
        if other.isEmpty && timing.isEmpty { #expect(r.status == 0, "\(r.stderr)") }
        if other.isEmpty {
            for f in timing {
                let id = f["id"] as? String ?? "", detail = f["detail"] as? String ?? ""
                try judgeTail(worstMs: lateMs(detail, clockHz: 20_000_000), boundMs: id == "stop.deferred" ? 2 : 1,
                              qemuWaitMs: qemuWaitMs, what: "conform \(id): \(detail); late by")
            }
        }
    }
}

/// How late a timing clause's failure says the board was, in ms: "up to N ticks late", "... at T, due D"
/// (the largest such pair), or "stop at tick T, frame i due at D"; infinity when it says something else
/// (then it is no lateness, and fails as such).
func lateMs(_ detail: String, clockHz: Double) -> Double {
    func ticks(after marker: String, in text: Substring) -> Double? {
        guard let r = text.range(of: marker) else { return nil }
        return Double(text[r.upperBound...].prefix { $0.isNumber })
    }
    // "HEARTBEAT: expected STATUS within 500 ms, got nothing": no answer for at least that long (a board
    // that never answers fails unless QEMU itself waited that long for a CPU).
    if let r = detail.range(of: "within "), detail.hasSuffix("got nothing"),
       let ms = Double(detail[r.upperBound...].prefix { $0.isNumber }), detail[r.upperBound...].contains(" ms,") {
        return ms
    }
    if detail.contains("ticks late") {
        let numbers = detail.split(whereSeparator: { !$0.isNumber }).compactMap { Double($0) }
        return numbers.last.map { $0 / clockHz * 1000 } ?? .infinity
    }
    if detail.hasPrefix("stop at tick"), let t = ticks(after: "stop at tick ", in: detail[...]),
       let d = ticks(after: "due at ", in: detail[...]) {
        return (t - d) / clockHz * 1000
    }
    // "... frame 50 at 188286606, due 188235540 ..." (one or several)
    var worst = -Double.infinity
    var rest = detail[...]
    while let r = rest.range(of: " at ") {
        let after = rest[r.upperBound...]
        if let t = Double(after.prefix { $0.isNumber }), let d = ticks(after: ", due ", in: after), d <= t {
            worst = max(worst, (t - d) / clockHz * 1000)
        }
        rest = after
    }
    return worst > 0 ? worst : .infinity
}
