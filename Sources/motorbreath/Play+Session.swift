// play's steps around the playback layer: the boards it opens, what it says once they are prepared, the
// live line and the controls following the breath, and the end (the report, the end line, the exit).
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath
import MotorSession
import Playback

extension Play {
    /// Opens the boards (--simulate, --port, --board). A port that cannot be opened still gives scripts a
    /// report, with the reason (printed once, by the caller).
    func openStage() throws -> Stage {
        let places = board.namedPlaces(simLink: simLink)
        var options = board.connection.stageOptions
        options.pacing = virtualTime ? .virtual : .realTime
        options.seed = seed
        do {
            let stage = try Stage.open(places, options: options)
            if !quiet { stage.notes.forEach { Stderr.write("motorbreath: note: \($0)\n") } }
            return stage
        } catch {
            if json {
                let reports = places.map { p in
                    var r = PlayReport()
                    r.error = p.name == error.board ? "the port could not be opened" : "another board's port could not be opened"
                    return BoardReport(name: p.name, report: r)
                }
                try printJSON(reports.count == 1 ? reports[0].report as any Encodable
                              : LayoutReport(boards: reports, placements: (try? board.placements()) ?? []))
            }
            throw fail(error.description)
        }
    }

    /// The session's options from the command line.
    var sessionOptions: SessionOptions {
        var options = board.connection.sessionOptions
        options.frameRate = frameRate
        options.allowReverse = !noCompensation
        options.failsafeMs = UInt16(failsafeMs)
        options.lineShare = Double(lineShare) / 100
        return options
    }

    /// How the frames are shaped: --motor, --no-compensation, --no-warmup, the calibration profile.
    var shaping: Shaping {
        var s = Shaping()
        s.motor = motor?.profile
        s.compensate = !noCompensation
        if noWarmup { s.warmupSeconds = 0 }
        s.profiles = calibration.lookup
        return s
    }

    /// "board: ..., ERM, drive ceiling ..., prepared in ... ms", the profile, an LRA without its resonance.
    func announce(_ boards: [Playback.PreparedBoard]) {
        guard !quiet else { return }
        for b in boards { b.announcement(named: boards.count > 1).forEach { Stderr.write($0 + "\n") } }
    }

    /// The end: the report (--json) or the end line per board, then the exit the result calls for.
    func end(_ result: PlaybackResult) throws {
        if json {
            try printJSON(result.jsonValue)
        } else if !quiet && !(result.boards.count == 1 && result.failure != nil) {
            let several = result.boards.count > 1
            for b in result.boards { Stderr.write(EndLine.text(b.report, board: several ? b.name : nil) + "\n") }
        }
        if result.exitCode == 0 { return }
        if let failure = result.failure, result.signal == 0 { throw fail(failure) }
        if result.signal != 0 || result.interrupted { throw ExitCode(result.exitCode) }
        let on = result.boards.first { !$0.report.motorOffAtExit }
        throw fail(result.boards.count > 1 ? "board \(on?.name ?? "?"): could not confirm the motor is off" : "could not confirm the motor is off")
    }
}
