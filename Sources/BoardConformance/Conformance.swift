// The conformance suite: every clause of protocol.md a board must keep, run against a port, one verdict
// per clause with the section it checks. Clauses live in Clauses+*.swift, grouped by section.

import Foundation
import MotorWire

/// One checkable promise of protocol.md.
public struct Clause: Sendable {
    public let id: String
    /// The protocol.md section it checks, e.g. "2" or "6".
    public let section: String
    public let title: String
    let run: @Sendable (Rig) throws -> Verdict

    init(_ id: String, _ section: String, _ title: String, _ run: @escaping @Sendable (Rig) throws -> Verdict) {
        self.id = id
        self.section = section
        self.title = title
        self.run = run
    }
}

/// What a clause found: passed (with what it measured), not applicable to this board, or failed.
public enum Verdict: Sendable {
    case pass(String)
    case notApplicable(String)
}

public struct ClauseResult: Sendable, Codable {
    public var id: String
    public var section: String
    public var title: String
    /// "pass", "fail" or "n/a".
    public var outcome: String
    public var detail: String
    public var seconds: Double
}

public struct ConformanceReport: Sendable, Codable {
    public var board: String
    public var results: [ClauseResult]
    public var passed: Int { results.filter { $0.outcome == "pass" }.count }
    public var failed: Int { results.filter { $0.outcome == "fail" }.count }
    public var seconds: Double

    enum CodingKeys: String, CodingKey { case board, results, passed, failed, seconds }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(board, forKey: .board)
        try c.encode(results, forKey: .results)
        try c.encode(passed, forKey: .passed)
        try c.encode(failed, forKey: .failed)
        try c.encode(seconds, forKey: .seconds)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        board = try c.decode(String.self, forKey: .board)
        results = try c.decode([ClauseResult].self, forKey: .results)
        seconds = try c.decode(Double.self, forKey: .seconds)
    }

    init(board: String, results: [ClauseResult], seconds: Double) {
        self.board = board
        self.results = results
        self.seconds = seconds
    }
}

public enum Conformance {
    /// Every clause, in the order they run (framing first: later clauses rely on it).
    public static let clauses: [Clause] = framingClauses + messageClauses + playbackClauses
        + stopClauses + failsafeClauses + variantClauses + limitsClauses

    /// Runs `clauses` (all by default) against the board behind `rig`; `progress` sees each result.
    public static func run(_ rig: Rig, only: [String] = [], progress: (ClauseResult) -> Void = { _ in }) -> ConformanceReport {
        let start = Date()
        var results: [ClauseResult] = []
        for clause in clauses where only.isEmpty || only.contains(where: { clause.id.hasPrefix($0) }) {
            let t0 = Date()
            var result = ClauseResult(id: clause.id, section: clause.section, title: clause.title, outcome: "pass",
                                      detail: "", seconds: 0)
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
        return ConformanceReport(board: rig.info.displayName, results: results, seconds: Date().timeIntervalSince(start))
    }
}
