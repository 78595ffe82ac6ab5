// serve's session on the playback layer: the board prepared, the breath played (shaped and judged as play
// plays it), an AHAP file the page sent played in its place and the breath started again after it (at the
// pace the page last set), the end told to the pages, motor off.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorControl
import MotorSession
import Playback

/// `motorbreath serve`'s breath: prepares the board and plays the breath, the pages following it through the
/// playback's hub; a file a page sends (`server.files`) stops the breath, plays, and the breath starts again.
/// What it has to say (the board, the profile, each file, the end line) goes to `say`.
///
///     let session = ServeSession(playback: playback, server: server, loop: true, stopWhenClosed: false)
///     session.say = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
///     if let end = session.run(plan) { exit(end.status) }
public final class ServeSession {
    let playback: Playback
    let server: BreathWebServer
    let loop: Bool
    /// Set when the last page closing stopped the breath (`stopWhenClosed`): an end that was asked for.
    let closedByPage = Box<Bool>()
    /// Where the session's lines go, one line each.
    public var say: (String) -> Void = { _ in }

    /// How a session ended when it did not end as asked: the error line (nil: none to print) and the status.
    public struct End: Sendable {
        public var line: String?
        public var status: Int32
    }

    /// A session playing through `playback` (its hub attached) and serving `server`'s pages; `loop` repeats
    /// the breath; `stopWhenClosed` stops it, motor off, when the last open page closes.
    public init(playback: Playback, server: BreathWebServer, loop: Bool, stopWhenClosed: Bool) {
        self.playback = playback
        self.server = server
        self.loop = loop
        guard stopWhenClosed, let hub = playback.hub else { return }
        let closed = closedByPage
        server.onLastPageClosed = {
            closed.value = true
            hub.handle(.stop)
        }
    }

    /// Plays until the breath ends or is stopped: nil when it ended as asked, else how it ended.
    public func run(_ plan: BreathPlan) -> End? {
        guard let controls = playback.hub else { return nil }
        server.files.onRequest = { [playback] in playback.stop() }  // the breath (or a file) ends, motor off, for the file
        defer { server.files.onRequest = nil }
        var announced = false
        var file: FileRequests.File?
        var breath = plan
        var pendingPace: BreathChange?
        while true {
            let boards: [Playback.PreparedBoard]
            do { boards = try playback.prepare() } catch { return finish(playback.result(failedToPrepare: error)) }
            if !announced { announce(boards[0]) }
            announced = true
            if file == nil { file = server.files.take() }  // sent while the board was being prepared
            if let playing = file {
                let outcome = play(playing, controls)
                guard case .played(let result) = outcome else { return outcome.end }
                file = server.files.take()
                if result.signal == 0 && (file != nil || !result.report.interrupted) {  // another file, or the breath again
                    let restart = controls.restart(plan.options)
                    breath = BreathPlan(pattern: restart.pattern, options: restart.options)
                    pendingPace = restart.pace  // sent once the board is prepared (prepare forgets changes)
                    continue
                }
                return finish(result)
            }
            if let pace = pendingPace { playback.change(pace) }
            pendingPace = nil
            let result = playback.play(.breath(breath, loop: loop))
            if result.signal == 0, result.failure == nil, let next = server.files.take(), result.motorOffAtExit {
                file = next
                continue
            }
            return finish(result)
        }
    }

    /// "board: ..., prepared in ... ms", the profile; the page's previews rendered for this motor.
    func announce(_ board: Playback.PreparedBoard) {
        let p = board.prepared
        say("board: \(p.info.displayName), \(p.info.motorKind == .lra ? "LRA" : "ERM"), prepared in \(Int(Double(p.prepareNs) / 1e6)) ms")
        if let name = board.shaping.profile { say("profile: \(name)") }
        server.renderPreviews(motor: board.shaping.motor, frameRate: Int(p.config.frameRateHz))
    }

    /// A file played: the breath may go on, or the session ended (as asked when `end` is nil).
    enum FileOutcome {
        case played(PlaybackResult)
        case ended(End?)

        var end: End? { if case .ended(let end) = self { end } else { nil } }
    }

    /// Plays a file a page sent, telling the pages and `say`; the session ends when it failed or left the
    /// motor on.
    func play(_ playing: FileRequests.File, _ controls: ControlHub) -> FileOutcome {
        controls.emit(ControlEvents.file(name: playing.name, state: .playing, durationS: playing.duration))
        say("file: \(playing.name), \(String(format: "%.1f", playing.duration)) s")
        let result = playback.play(.haptics(playing.haptics, duration: playing.duration))
        if result.failure != nil { return .ended(finish(result)) }
        let report = result.report, state: FileState = report.interrupted ? .stopped : .played
        controls.emit(ControlEvents.file(name: playing.name, state: state, durationS: playing.duration, report: report))
        say("file: \(playing.name) \(state.rawValue), \(report.framesPlayed)/\(report.framesTotal) frames, \(report.framesLost) lost")
        if !report.motorOffAtExit { return .ended(End(line: "could not confirm the motor is off", status: 1)) }
        return .played(result)
    }

    /// The end: `finished` (or `error`) to the pages, the end line, and how it ended when not as asked.
    func finish(_ result: PlaybackResult) -> End? {
        playback.tellEnd(result)
        if let failure = result.failure, result.signal == 0 { return End(line: failure, status: 1) }
        say(EndLine.text(result.report))
        usleep(200_000)  // the pages read `finished` before the server closes
        if !result.motorOffAtExit { return End(line: "could not confirm the motor is off", status: 1) }
        if result.signal != 0 { return End(line: nil, status: result.exitCode) }
        // Ended as asked (exit 0): by the last page closing (`stopWhenClosed`), or by a `finish` in the palette,
        // which has no end of its own to finish at (docs/control.md); by Stop, 130.
        let asked = (closedByPage.value ?? false) || (playback.hub?.stoppedByFinish ?? false)
        if result.interrupted && !asked { return End(line: nil, status: 130) }
        return nil
    }
}
