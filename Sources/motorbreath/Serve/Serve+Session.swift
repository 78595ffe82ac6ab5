// serve's session: the board prepared, the hub fed the session's events and state, the breath played
// (with the board's calibration profile, as play plays it), an AHAP file the page sent played in its
// place and the breath started again after it, the end told to the pages, motor off.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath
import BreathWeb
import Calibration
import Foundation
import MotorControl
import MotorSession

extension ServeCommand {
    /// Prepares the board and plays the breath, the pages following it through `controls`; a file the page
    /// sends (`server.files`) stops the breath, plays, and the breath starts again. Throws the exit (one
    /// line on stderr) when it did not end as asked.
    func serveBreath(_ plan: BreathPlan, session: BreathSession, controls: ControlHub, server: BreathWebServer,
                     closedByPage: Box<Bool>) throws {
        server.files.onRequest = { session.stop() }  // the breath (or a file) ends, motor off, for the file
        defer { server.files.onRequest = nil }
        var shaping: BoardShaping?
        var file: FileRequests.File?
        var breath = plan
        var pendingPace: BreathChange?
        do {
            while true {
                let prepared = try session.prepare()
                if shaping == nil {
                    Stderr.write("board: \(prepared.info.displayName), \(prepared.info.motorKind == .lra ? "LRA" : "ERM"), prepared in \(Int(Double(prepared.prepareNs) / 1e6)) ms\n")
                    // A calibration profile (the board's own unless --profile says otherwise) shapes it, as in play.
                    let calibrated = try calibration.forBoard(uniqueID: prepared.info.uniqueID, boardName: prepared.info.name.text)
                    if let calibrated { Stderr.write("profile: \(calibrated.name)\n") }
                    shaping = BoardShaping(calibrated, motor: calibrated?.motor(or: session.motor) ?? session.motor)
                    server.renderPreviews(motor: shaping!.motor, frameRate: Int(prepared.config.frameRateHz))
                }
                let shaped = shaping!
                follow(session, prepared: prepared, controls: controls)
                controls.greet(ControlEvents.prepared(prepared, pattern: breath.pattern.name))
                if file == nil { file = server.files.take() }  // sent while the board was being prepared
                if let playing = file {
                    controls.emit(ControlEvents.file(name: playing.name, state: "playing", durationS: playing.duration))
                    Stderr.write("file: \(playing.name), \(String(format: "%.1f", playing.duration)) s\n")
                    let report = try session.play(pattern: playing.haptics, duration: playing.duration, motor: shaped.motor, feltRange: shaped.feltRange,
                                                  warmupMargin: shaped.warmupMargin)
                    file = server.files.take()
                    controls.emit(ControlEvents.file(name: playing.name, state: report.interrupted ? "stopped" : "played",
                                                     durationS: playing.duration, report: report))
                    Stderr.write("file: \(playing.name) \(report.interrupted ? "stopped" : "played"), \(report.framesPlayed)/\(report.framesTotal) frames, \(report.framesLost) lost\n")
                    if !report.motorOffAtExit { throw fail("could not confirm the motor is off") }
                    if file != nil || !report.interrupted {  // another file, or the breath again
                        let restart = controls.restart(plan.options)
                        breath = BreathPlan(pattern: restart.pattern, options: restart.options)
                        pendingPace = restart.pace  // sent once the board is prepared (prepare forgets changes)
                        continue
                    }
                    try finish(report, controls: controls, closedByPage: closedByPage)
                    return
                }
                if let pace = pendingPace { session.change(pace) }
                pendingPace = nil
                let report = try session.play(breath.pattern, breath: breath.options, loop: loop, motor: shaped.motor, feltRange: shaped.feltRange,
                                              warmupMargin: shaped.warmupMargin)
                if let next = server.files.take(), report.motorOffAtExit {
                    file = next
                    continue
                }
                try finish(report, controls: controls, closedByPage: closedByPage)
                return
            }
        } catch let error as SessionError {
            let report = session.player?.report ?? PlayReport()
            if session.player == nil { _ = session.channel.stopNow(timeoutMs: session.options.replyTimeoutMs) }
            controls.emit(ControlEvents.line(["event": "error", "message": error.description, "report": ControlEvents.reportFields(report)]))
            if Signals.pending != 0 { throw ExitCode(Signals.exitCode) }
            throw fail(error.description)
        }
    }

    /// The session's events, state and stop to the hub (for each session on the board: breath or file).
    private func follow(_ session: BreathSession, prepared: Prepared, controls: ControlHub) {
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
    }

    /// The end of serve's playing: `finished` to the pages, one line on stderr, the exit when it was not asked for.
    private func finish(_ report: PlayReport, controls: ControlHub, closedByPage: Box<Bool>) throws {
        controls.emit(ControlEvents.finished(report))
        Stderr.write("played \(report.framesPlayed)/\(report.framesTotal) frames, \(report.framesLost) lost, motor \(report.motorOffAtExit ? "off" : "STATE UNKNOWN")\n")
        usleep(200_000)  // the pages read `finished` before the server closes
        if !report.motorOffAtExit { throw fail("could not confirm the motor is off") }
        if report.interrupted && !closedByPage.isSet { throw ExitCode(Signals.pending != 0 ? Signals.exitCode : 130) }
    }
}
