// A board of an ensemble that fails for good: by default it ends only its own part (the others play on,
// its report says why); with `allOrNothing` the first such failure stops every board at once, motor off,
// and the others' reports say which board stopped them. (A board that goes away and comes back is no
// failure: its own player reconnects and resumes at the breath's phase on the common start instant.)
// SPDX-License-Identifier: Apache-2.0

import SerialLink

extension BreathEnsemble {
    /// Board `name`'s session ended with an error (it will not come back). With `allOrNothing`, the first
    /// such board stops every other board now.
    func boardFailed(_ name: String) {
        guard failures.note(name), allOrNothing else { return }
        for m in members where m.name != name { m.session.stop() }
    }

    /// The ensemble's report: with `allOrNothing` and a failed board, the boards it stopped say so.
    func report(startAtNs start: UInt64, boards: [BoardReport]) -> EnsembleReport {
        var report = EnsembleReport(startAtNs: start, boards: boards)
        guard allOrNothing, let first = failures.first else { return report }
        report.stoppedBy = first
        for k in report.boards.indices where report.boards[k].report.error == nil && report.boards[k].name != first {
            report.boards[k].report.error = "stopped: board \(first) failed (all or nothing)"
        }
        return report
    }
}

/// The first board of an ensemble that failed for good (its players' threads report to it at once).
final class FirstFailure: @unchecked Sendable {
    private let lock = Mutex()
    private var name: String?

    /// Records board `board`'s failure; true if it is the first.
    func note(_ board: String) -> Bool {
        lock.withLock {
            guard name == nil else { return false }
            name = board
            return true
        }
    }

    var first: String? { lock.withLock { name } }

    func reset() { lock.withLock { name = nil } }
}
