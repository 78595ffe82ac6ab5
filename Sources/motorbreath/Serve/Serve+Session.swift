// serve's session: the board prepared, the hub fed the session's events and state, the breath played
// (with the board's calibration profile, as play plays it), the end told to the pages, motor off.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath
import BreathWeb
import Calibration
import Foundation
import MotorControl
import MotorSession

extension ServeCommand {
    /// Prepares the board and plays the breath, the pages following it through `controls`; throws the exit
    /// (one line on stderr) when it did not end as asked.
    func serveBreath(_ plan: BreathPlan, session: BreathSession, controls: ControlHub, server: BreathWebServer,
                     closedByPage: Box<Bool>) throws {
        let pattern = plan.pattern
        do {
            let prepared = try session.prepare()
            Stderr.write("board: \(prepared.info.displayName), \(prepared.info.motorKind == .lra ? "LRA" : "ERM"), prepared in \(Int(Double(prepared.prepareNs) / 1e6)) ms\n")
            let clock = session.channel.clock
            session.onEvent = { controls.emit(controls.line(for: $0, nowNs: clock.nowNs())) }
            var warmup = 0.0
            let frames = Box<any SteerableFrames>()
            session.willPlay = { _, source in
                warmup = Double(source.warmupFrames) / Double(prepared.config.frameRateHz)
                frames.value = source.steerable
            }
            session.onStatus = { live in
                var breathTime = live
                breathTime.elapsed -= warmup
                controls.noteSessionState(PlayControls.stateFields(breathTime, frames: frames.value, board: prepared.info.displayName))
            }
            session.shouldStop = { Signals.pending != 0 }
            controls.greet(ControlEvents.prepared(prepared, pattern: pattern.name))
            // A calibration profile (the board's own unless --profile says otherwise) shapes it, as in play.
            let calibrated = try calibration.forBoard(uniqueID: prepared.info.uniqueID, boardName: prepared.info.name.text)
            let motor = calibrated?.motor(or: session.motor) ?? session.motor
            if let calibrated { Stderr.write("profile: \(calibrated.name)\n") }
            server.renderPreviews(motor: motor, frameRate: Int(prepared.config.frameRateHz))
            let report = try session.play(plan.pattern, breath: plan.options, loop: loop, motor: motor, feltRange: calibrated?.feltRange,
                                          warmupMargin: calibrated == nil ? 1.5 : CalibrationProfile.warmupMargin)
            controls.emit(ControlEvents.finished(report))
            Stderr.write("played \(report.framesPlayed)/\(report.framesTotal) frames, \(report.framesLost) lost, motor \(report.motorOffAtExit ? "off" : "STATE UNKNOWN")\n")
            usleep(200_000)  // the pages read `finished` before the server closes
            if !report.motorOffAtExit { throw fail("could not confirm the motor is off") }
            if report.interrupted && !closedByPage.isSet { throw ExitCode(Signals.pending != 0 ? Signals.exitCode : 130) }
        } catch let error as SessionError {
            let report = session.player?.report ?? PlayReport()
            if session.player == nil { _ = session.channel.stopNow(timeoutMs: session.options.replyTimeoutMs) }
            controls.emit(ControlEvents.line(["event": "error", "message": error.description, "report": ControlEvents.reportFields(report)]))
            if Signals.pending != 0 { throw ExitCode(Signals.exitCode) }
            throw fail(error.description)
        }
    }
}
