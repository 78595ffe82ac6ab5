// `motorbreath palette`: a steady vibration whose intensity and sharpness follow the keys, like Apple's
// HapticPalette sample, to explore a motor and a spot on the skin before choosing a strength.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import Breath
import Glibc
import LiveText
import MotorControl
import MotorSession
import Playback
import SerialLink
import SimBoard

struct PaletteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "palette",
        abstract: "Feel a steady vibration and change it with the keys: up/down intensity, left/right sharpness.",
        discussion: """
            Space pauses and resumes, q (or Ctrl-C) ends with the motor off. The live line shows the intensity \
            and the sharpness; a program may steer it too, over --control-socket (see docs/control.md).

            Examples:
              motorbreath palette --simulate
              motorbreath palette --port /dev/ttyUSB0
            """
    )

    @OptionGroup var board: BoardArguments

    @OptionGroup(title: "Calibration") var calibration: ProfileArguments

    @Option(parsing: .unconditional, help: "Intensity to start at, 0...1 (default: 0.5).", transform: OptionValue.double(0...1))
    var intensity: Double = 0.5

    @Option(help: "Listen on this Unix socket for commands and events (JSON lines).")
    var controlSocket: String?

    @Option(help: ArgumentHelp("Permissions of the control socket, octal: 600 (the default) lets only you connect, 660 your group too, 666 everyone.", valueName: "mode"),
            transform: SocketMode.value)
    var controlMode: SocketMode = .ownerOnly

    func validate() throws {
        guard controlSocket != nil || controlMode == .ownerOnly else { throw ValidationError("--control-mode sets the permissions of --control-socket; give that too") }
    }

    func run() throws {
        Signals.install()
        Signals.followResizes()
        let stage = try board.openStage(simulated: .simulated())
        defer { stage.close() }
        var options = board.connection.sessionOptions
        options.allowReverse = true
        // No warm-up (the level is steady from the start); the board's profile, as in play.
        var shaping = Shaping()
        shaping.warmupSeconds = 0
        shaping.profiles = calibration.lookup
        let playback = Playback(stage, options: options, shaping: shaping)
        let steady = BreathPattern.steady
        let breath = BreathOptions.steady(intensity: intensity)
        let hub = ControlHub(inbox: playback.inbox, pattern: steady, strength: 1, sharpness: breath.sharpness)
        hub.arrowsChangeSharpness = true
        hub.handle(.intensity(intensity))
        playback.attach(hub)
        let keys = KeyControl(hub: hub)
        defer { keys?.stop() }
        var socket: ControlSocket?
        if let path = controlSocket {
            do { socket = try ControlSocket(path: path, hub: hub, mode: mode_t(controlMode.bits)) } catch { throw fail("\(error)") }
        }
        defer { socket?.close() }
        if keys == nil { Stderr.write("motorbreath: note: standard input is not a terminal: no keys (use --control-socket)\n") }
        let view = PaletteView(hub: hub)
        defer { view.finish() }
        playback.onStatus = { _, _ in view.show() }
        let result = play(playback, .breath(BreathPlan(pattern: steady, options: breath), loop: true))
        view.finish()
        playback.tellEnd(result)
        Stderr.write("motor \(result.motorOffAtExit ? "off" : "STATE UNKNOWN")\n")
        if let failure = result.failure, result.signal == 0 { throw fail(failure) }
        if result.signal != 0 { throw ExitCode(result.exitCode) }
        if !result.motorOffAtExit { throw fail("could not confirm the motor is off") }
    }

    /// Prepares the board (saying which, and its profile) and plays the steady vibration until stopped.
    private func play(_ playback: Playback, _ content: PlaybackContent) -> PlaybackResult {
        let boards: [Playback.PreparedBoard]
        do { boards = try playback.prepare() } catch { return playback.result(failedToPrepare: error) }
        Stderr.write("board: \(boards[0].prepared.info.displayName)\n")
        if let name = boards[0].shaping.profile { Stderr.write("profile: \(name)\n") }
        return playback.play(content)
    }
}

/// The palette's live line: the intensity and the sharpness.
final class PaletteView: @unchecked Sendable {
    let hub: ControlHub
    let line: LiveLine?

    init(hub: ControlHub) {
        self.hub = hub
        line = Stderr.isTerminal ? LiveLine() : nil
    }

    func show() {
        let text = "palette  " + hub.summary + "   (q quits)"
        line?.draw { [Span(Terminal.clip(text, to: $0))] }
    }

    func finish() { line?.finish() }
}
