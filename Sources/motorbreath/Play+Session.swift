// play's steps around the session: the board it opens, what it says once prepared, the breath played with
// the view and the controls following it, and the report of a session that failed.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import Breath
import Calibration
import MotorSession
import SerialLink
import SimBoard

extension Play {
    /// The simulated world (--sim-link, --virtual-time, --seed) or the port. A port that cannot be opened
    /// still gives scripts a report, with the reason (already printed).
    func connect() throws -> BoardConnection {
        let impairments = simLink?.impairments ?? LinkImpairments()
        do {
            return try board.connect(quiet: quiet) {
                .simulated(SimWorld(impairments: impairments, pacing: virtualTime ? .virtual : .realTime, seed: seed))
            }
        } catch {
            if json {
                var failed = PlayReport()
                failed.error = "the port could not be opened"
                try printJSON(failed)
            }
            throw error
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

    /// "board: ..., ERM, drive ceiling ..., prepared in ... ms".
    func announce(_ prepared: Prepared) {
        guard !quiet else { return }
        let ceiling = prepared.limits.map { ", drive ceiling \(Int((Double($0.ceilingLevel) / 327.67).rounded())) %" } ?? ""
        Stderr.write("board: \(prepared.info.displayName), \(prepared.info.motorKind == .lra ? "LRA" : "ERM")\(ceiling), prepared in \(Int(Double(prepared.prepareNs) / 1e6)) ms\n")
    }

    /// The calibration profile for the prepared board (said on stderr) and how its frames are shaped.
    func shaping(for prepared: Prepared, session: BreathSession) throws -> BoardShaping {
        let base = motor?.profile ?? session.motor
        let calibrated = try calibration.forBoard(uniqueID: prepared.info.uniqueID, boardName: prepared.info.name.text)
        let profile = calibrated?.motor(or: base) ?? base
        if let calibrated, !quiet {
            Stderr.write("profile: \(calibrated.name): felt \(fixed(calibrated.feltThreshold * 100, 1))...\(fixed(calibrated.comfortMax * 100, 1)) %, motor starts at \(fixed(calibrated.startThreshold * 100, 1)) %\n")
        }
        if case .lra = profile, prepared.info.lraResonanceDeciHz == 0 {
            Stderr.write("motorbreath: note: the LRA board reports no resonance frequency; its carrier may be off resonance\n")
        }
        return BoardShaping(calibrated, motor: profile)
    }

    /// Plays the breath (or the AHAP file) on the prepared board, the view and the controls following it.
    /// In simulation every frame is judged against the board's true clock as it plays (a steered breath
    /// against what the host meant at the time: the live source itself).
    func play(_ built: BuiltBreath, session: BreathSession, on board: BoardConnection, prepared: Prepared,
              view: LiveView, controls: PlayControls?) throws -> PlayReport {
        let shaping = try self.shaping(for: prepared, session: session)
        var truth: TrueTiming?
        var warmup = 0.0
        session.willPlay = { player, frames in
            warmup = Double(frames.warmupFrames) / Double(frameRate)
            view.live = frames.steerable
            if let world = board.world {
                world.recordPlays = false
                truth = TrueTiming(world: world, player: player, expected: frames)
            }
        }
        session.onStatus = { live in
            var breathTime = live
            breathTime.elapsed -= warmup
            view.show(breathTime)
            controls?.hub.noteSessionState(PlayControls.stateFields(breathTime, frames: view.live, board: prepared.info.displayName))
        }
        session.shouldStop = { Signals.pending != 0 }
        var report = try Self.play(built, on: session, shaped: shaping, loop: loop, compensate: !noCompensation, warmup: warmupSeconds)
        report.profile = shaping.profile
        truth?.judge(&report)
        return report
    }

    /// The warm-up before the breath, s (`--no-warmup`: none).
    var warmupSeconds: Double { noWarmup ? 0 : 0.3 }

    /// Plays the breath (or the AHAP file) of `built` on `session`, shaped as `shaped` says (also from a
    /// board's own thread: several boards in step).
    static func play(_ built: BuiltBreath, on session: BreathSession, shaped: BoardShaping, loop: Bool, compensate: Bool,
                     warmup: Double) throws(SessionError) -> PlayReport {
        if let plan = built.plan {
            return try session.play(plan.pattern, breath: plan.options, loop: loop, motor: shaped.motor, compensate: compensate,
                                    warmup: warmup, feltRange: shaped.feltRange, warmupMargin: shaped.warmupMargin)
        }
        return try session.play(pattern: built.pattern, duration: built.duration, motor: shaped.motor, compensate: compensate,
                                warmup: warmup, feltRange: shaped.feltRange, warmupMargin: shaped.warmupMargin)
    }

    /// A session that failed: scripts and controllers learn what happened from the same report, with an
    /// error field; returns the exit (128 + the signal's number after a signal, else the one-line error).
    func failed(_ error: SessionError, session: BreathSession, port: String?, controls: PlayControls?) throws -> Error {
        var message = error.description
        if case .noHello = error, let port, let hint = USBSerialTuning.modemManagerHint(forPort: port) {
            message += "; \(hint)"
        }
        var failed = session.player?.report ?? PlayReport()
        if session.player == nil { failed.motorOffAtExit = session.channel.stopNow(timeoutMs: session.options.replyTimeoutMs) }
        failed.interrupted = Signals.pending != 0
        failed.error = failed.interrupted ? nil : message
        if json { try printJSON(failed) }
        controls?.failed(message, report: failed)
        if Signals.pending != 0 { return ExitCode(Signals.exitCode) }
        return fail(message)
    }
}
