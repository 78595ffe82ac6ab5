// The conformance suite: every clause of protocol.md a board must keep, run against a port, one verdict
// per clause with the section it checks. Clauses live in Clauses+*.swift, grouped by section.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorWire

/// One checkable promise of protocol.md.
public struct Clause: Sendable {
    public let id: String
    /// The protocol.md section it checks, e.g. "2" or "6".
    public let section: String
    public let title: String
    /// The protocol revision that introduced it: a board that keeps an older one is not held to it.
    public let since: Revision
    let run: @Sendable (Rig) throws -> Verdict

    init(_ id: String, _ section: String, _ title: String, since: Revision = .r1_0,
         _ run: @escaping @Sendable (Rig) throws -> Verdict) {
        self.id = id
        self.section = section
        self.title = title
        self.since = since
        self.run = run
    }
}

/// What a clause found: passed (with what it measured), not applicable to this board, or failed.
public enum Verdict: Sendable {
    case pass(String)
    case notApplicable(String)
}

/// The verdict on one ``Clause`` in a conformance run: the clause's id, section, title and revision, the
/// outcome ("pass", "fail" or "n/a"), what was measured or why it failed, and how long it took.
public struct ClauseResult: Sendable, Codable {
    /// The clause's id, protocol.md section and title, as in ``Clause``.
    public var id: String
    public var section: String
    public var title: String
    /// The revision that introduced the clause, "1.1".
    public var since: String
    /// "pass", "fail" or "n/a".
    public var outcome: String
    /// What the clause measured (pass), why it does not apply (n/a), or the failed expectation (fail).
    public var detail: String
    /// How long the clause took to run.
    public var seconds: Double
}

/// A whole conformance run against one board: the revision it was held to, every ``ClauseResult`` in the
/// order run, the pass and fail counts and the run's length. Encodes as the JSON `conform --json` prints
/// (with `passed` and `failed`).
public struct ConformanceReport: Sendable, Codable {
    /// The board's display name, from its INFO.
    public var board: String
    /// The revision the board was held to, "1.2" (the one it announced unless `conform --revision` said).
    public var revision: String
    public var results: [ClauseResult]
    public var passed: Int { results.filter { $0.outcome == "pass" }.count }
    public var failed: Int { results.filter { $0.outcome == "fail" }.count }
    /// How long the whole run took.
    public var seconds: Double

    enum CodingKeys: String, CodingKey { case board, revision, results, passed, failed, seconds }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(board, forKey: .board)
        try c.encode(revision, forKey: .revision)
        try c.encode(results, forKey: .results)
        try c.encode(passed, forKey: .passed)
        try c.encode(failed, forKey: .failed)
        try c.encode(seconds, forKey: .seconds)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        board = try c.decode(String.self, forKey: .board)
        revision = try c.decodeIfPresent(String.self, forKey: .revision) ?? Revision.r1_0.description
        results = try c.decode([ClauseResult].self, forKey: .results)
        seconds = try c.decode(Double.self, forKey: .seconds)
    }

    init(board: String, revision: String, results: [ClauseResult], seconds: Double) {
        self.board = board
        self.revision = revision
        self.results = results
        self.seconds = seconds
    }
}

/// The conformance suite: every clause of protocol.md a board must keep, run against a port through a
/// ``Rig``, one verdict per clause with the section it checks. Clauses live in Clauses+*.swift, grouped by
/// section.
///
///     let rig = try Rig(link: port)             // any ByteLink: a serial port, a simulated board
///     let report = Conformance.run(rig) { print($0.id, $0.outcome, $0.detail) }
///     print("\(report.passed) passed, \(report.failed) failed")
public enum Conformance {
    /// Every clause, in the order they run (framing first: later clauses rely on it).
    public static let clauses: [Clause] = framingClauses + messageClauses + playbackClauses
        + stopClauses + failsafeClauses + variantClauses + driveClauses + limitsClauses + revisionClauses + clockHoldClauses + sensorClauses

    /// Runs `clauses` (all by default) against the board behind `rig`; `progress` sees each result. A clause
    /// introduced after the revision the board is held to (`rig.heldTo`) is not run: it is n/a, saying so.
    public static func run(_ rig: Rig, only: [String] = [], progress: (ClauseResult) -> Void = { _ in }) -> ConformanceReport {
        let start = Date()
        var results: [ClauseResult] = []
        for clause in clauses where only.isEmpty || only.contains(where: { clause.id.hasPrefix($0) }) {
            let t0 = Date()
            var result = ClauseResult(id: clause.id, section: clause.section, title: clause.title,
                                      since: clause.since.description, outcome: "pass", detail: "", seconds: 0)
            if clause.since > rig.heldTo {
                result.outcome = "n/a"
                result.detail = "introduced in revision \(clause.since); the board is held to \(rig.heldTo)"
                results.append(result)
                progress(result)
                continue
            }
            do {
                // Every clause starts from a quiet, stopped board; one that ended in failsafe is configured again.
                try rig.stopNow()
                if try rig.status().state == .failsafe { try rig.configure() }
                switch try clause.run(rig) {
                case .pass(let detail): result.detail = detail
                case .notApplicable(let why):
                    result.outcome = "n/a"
                    result.detail = why
                }
            } catch {
                result.outcome = "fail"
                result.detail = "\(error)"
            }
            result.seconds = Date().timeIntervalSince(t0)
            results.append(result)
            progress(result)
        }
        try? rig.stopNow()
        return ConformanceReport(board: rig.info.displayName, revision: rig.heldTo.description, results: results,
                                 seconds: Date().timeIntervalSince(start))
    }
}
