// The end of a playback: each board's report, how it ended (to the end, stopped, failed), the exit status
// the shell convention gives it, and one JSON shape for one board or several.
// SPDX-License-Identifier: Apache-2.0

import MotorSession

/// How a ``Playback`` ended, with each board's report (a simulated board's judged on its true clock).
public struct PlaybackResult: Sendable {
    public var boards: [BoardReport]
    public var placements: [Placement]
    /// The board whose failure stopped every board (`allOrNothing`).
    public var stoppedBy: String?
    /// Stopped before its end: by `stop()`, a `stop` command, the q key or a signal.
    public var interrupted = false
    /// The signal that stopped it (0: none).
    public var signal: Int32 = 0
    /// Why the boards never played: their prepare failed.
    public var prepareFailure: String?

    init(boards: [BoardReport], placements: [Placement], stoppedBy: String?) {
        self.boards = boards
        self.placements = placements
        self.stoppedBy = stoppedBy
    }

    /// The one board's report (the first board's with several).
    public var report: PlayReport { boards[0].report }

    /// Every motor confirmed off.
    public var motorOffAtExit: Bool { boards.allSatisfy(\.report.motorOffAtExit) }

    /// The one-line error, nil when it played to the end or was stopped: the board that failed and why.
    public var failure: String? {
        if let prepareFailure { return prepareFailure }
        if boards.count == 1 { return boards[0].report.error }
        if let first = stoppedBy {
            let why = boards.first { $0.name == first }?.report.error ?? "it failed"
            return "board \(first): \(why); every board stopped (--all-or-nothing)"
        }
        let failed = boards.filter { $0.report.error != nil }
        guard let bad = failed.first, let why = bad.report.error else { return nil }
        let rest = failed.count > 1 ? " (and \(failed.count - 1) more boards)" : ""
        let others = failed.count < boards.count ? "; the others played on" : ""
        return "board \(bad.name) ended early: \(why)\(rest)\(others)"
    }

    /// The exit status: 128 + the signal after one; 130 when stopped otherwise (a `stop` command, the q
    /// key: as Ctrl-C); 1 after a failure or a motor not confirmed off; 0 after the breath's end.
    public var exitCode: Int32 {
        if signal != 0 { return 128 + signal }
        if interrupted && failure == nil { return 130 }
        if failure != nil || !motorOffAtExit { return 1 }
        return 0
    }

    /// What `--json` prints and a control channel's last event carries: one board's `PlayReport` as it
    /// is; several boards' each by name and place (``LayoutReport``).
    public var jsonValue: any Encodable {
        boards.count == 1 ? boards[0].report : LayoutReport(boards: boards, placements: placements)
    }
}

/// Several boards' JSON report: one report per board, by name and place, in the layout's order.
public struct LayoutReport: Encodable {
    public var boards: [BoardReport]
    /// Each board's place, in the same order; empty: not known.
    public var placements: [Placement]

    public init(boards: [BoardReport], placements: [Placement]) {
        self.boards = boards
        self.placements = placements
    }

    enum CodingKeys: String, CodingKey {
        case boards, spread
        case motorOffAtExit = "motor_off_at_exit"
    }

    struct Named: Encodable {
        var name: String
        var at: Double?
        var strength: Double?
        var offsetMs: Int?
        var report: PlayReport

        enum CodingKeys: String, CodingKey {
            case name, at, strength, report
            case offsetMs = "offset_ms"
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(boards.enumerated().map { k, b in
            let place = k < placements.count ? placements[k] : nil
            return Named(name: b.name, at: place?.spread?.position, strength: place?.spread?.gain, offsetMs: place?.offsetMs, report: b.report)
        }, forKey: .boards)
        try c.encodeIfPresent(placements.first?.spread.map { $0.travel == .rise ? "rise:\(Self.trim($0.fraction))" : "together" },
                              forKey: .spread)
        try c.encode(boards.allSatisfy(\.report.motorOffAtExit), forKey: .motorOffAtExit)
    }

    /// 0.5 -> "0.5", 1.0 -> "1": a number as a person writes it.
    static func trim(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)"
    }
}
