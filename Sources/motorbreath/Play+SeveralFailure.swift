// The end of several boards' breath when a board failed for good: which board ended and why, as one line
// and an exit status of 1, after the others finished (or, with --all-or-nothing, the board whose failure
// stopped them all).
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import MotorSession

extension Play {
    /// Throws the one-line error of a board that failed (its report's error), if any did.
    func failIfABoardFailed(_ result: EnsembleReport) throws {
        if let line = Self.failureLine(result) { throw fail(line) }
    }

    /// The line of a board that failed (its report's error), nil if none did: what the command exits with
    /// and the control channel's last `error` says.
    static func failureLine(_ result: EnsembleReport) -> String? {
        if let first = result.stoppedBy {
            let why = result.boards.first { $0.name == first }?.report.error ?? "it failed"
            return "board \(first): \(why); every board stopped (--all-or-nothing)"
        }
        let failed = result.boards.filter { $0.report.error != nil }
        guard let bad = failed.first, let why = bad.report.error else { return nil }
        let rest = failed.count > 1 ? " (and \(failed.count - 1) more boards)" : ""
        let others = failed.count < result.boards.count ? "; the others played on" : ""
        return "board \(bad.name) ended early: \(why)\(rest)\(others)"
    }
}
