// serve's session on the playback layer: the board prepared, the breath played (shaped and judged as play
// plays it), an AHAP file the page sent played in its place and the breath started again after it, the
// end told to the pages, motor off.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath
import BreathWeb
import Foundation
import MotorControl
import MotorSession
import Playback

extension ServeCommand {
    /// Prepares the board and plays the breath, the pages following it through the playback's hub; a file
    /// the page sends (`server.files`) stops the breath, plays, and the breath starts again. Throws the exit
    /// (one line on stderr) when it did not end as asked.
    func serveBreath(_ plan: BreathPlan, playback: Playback, server: BreathWebServer, closedByPage: Box<Bool>) throws {
        guard let controls = playback.hub else { return }
        server.files.onRequest = { playback.stop() }  // the breath (or a file) ends, motor off, for the file
        defer { server.files.onRequest = nil }
        var announced = false
        var file: FileRequests.File?
        var breath = plan
        var pendingPace: BreathChange?
        while true {
            let boards: [Playback.PreparedBoard]
            do { boards = try playback.prepare() } catch { return try finish(playback.result(failedToPrepare: error), playback: playback, closedByPage: closedByPage) }
            if !announced {
                announced = true
                let p = boards[0].prepared
                Stderr.write("board: \(p.info.displayName), \(p.info.motorKind == .lra ? "LRA" : "ERM"), prepared in \(Int(Double(p.prepareNs) / 1e6)) ms\n")
                if let name = boards[0].shaping.profile { Stderr.write("profile: \(name)\n") }
                server.renderPreviews(motor: boards[0].shaping.motor, frameRate: Int(p.config.frameRateHz))
            }
            if file == nil { file = server.files.take() }  // sent while the board was being prepared
            if let playing = file {
                controls.emit(ControlEvents.file(name: playing.name, state: "playing", durationS: playing.duration))
                Stderr.write("file: \(playing.name), \(String(format: "%.1f", playing.duration)) s\n")
                let result = playback.play(.haptics(playing.haptics, duration: playing.duration))
                if result.failure != nil { return try finish(result, playback: playback, closedByPage: closedByPage) }
                let report = result.report
                file = server.files.take()
                controls.emit(ControlEvents.file(name: playing.name, state: report.interrupted ? "stopped" : "played",
                                                 durationS: playing.duration, report: report))
                Stderr.write("file: \(playing.name) \(report.interrupted ? "stopped" : "played"), \(report.framesPlayed)/\(report.framesTotal) frames, \(report.framesLost) lost\n")
                if !report.motorOffAtExit { throw fail("could not confirm the motor is off") }
                if result.signal == 0 && (file != nil || !report.interrupted) {  // another file, or the breath again
                    let restart = controls.restart(plan.options)
                    breath = BreathPlan(pattern: restart.pattern, options: restart.options)
                    pendingPace = restart.pace  // sent once the board is prepared (prepare forgets changes)
                    continue
                }
                return try finish(result, playback: playback, closedByPage: closedByPage)
            }
            if let pace = pendingPace { playback.change(pace) }
            pendingPace = nil
            let result = playback.play(.breath(breath, loop: loop))
            if result.signal == 0, result.failure == nil, let next = server.files.take(), result.motorOffAtExit {
                file = next
                continue
            }
            return try finish(result, playback: playback, closedByPage: closedByPage)
        }
    }

    /// The end of serve's playing: `finished` (or `error`) to the pages, one line on stderr, the exit when
    /// it was not asked for.
    private func finish(_ result: PlaybackResult, playback: Playback, closedByPage: Box<Bool>) throws {
        playback.tellEnd(result)
        if let failure = result.failure, result.signal == 0 { throw fail(failure) }
        Stderr.write(EndLine.text(result.report) + "\n")
        usleep(200_000)  // the pages read `finished` before the server closes
        if !result.motorOffAtExit { throw fail("could not confirm the motor is off") }
        if result.signal != 0 { throw ExitCode(result.exitCode) }
        if result.interrupted && !closedByPage.isSet { throw ExitCode(130) }
    }
}
