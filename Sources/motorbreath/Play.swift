// `motorbreath play` (the default): prepare the board, stream the breath, stop with the motor off.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import MotorControl
import MotorSession
import Playback

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a breathing pattern on a board (the default command).",
        discussion: """
            Patterns: 4-7-8 (inhale 4 s, hold 7 s, exhale 8 s), box (4-4-4-4), coherent (5.5-5.5), sigh \
            (two inhales, a long exhale), or your own in-hold-out[-holdout] seconds such as 5-0-5 or \
            4-2-6-2. Ctrl-C stops the motor at once and exits 130.

            The port must be motorbreath's alone: a terminal, cat or a modem manager reading it would take \
            the board's replies. motorbreath refuses a port another program has open (it looks in /proc, \
            so it sees other users' programs only when run as root) and, on a real serial port, keeps \
            others from opening it while it plays (TIOCEXCL; root can still open it).

            Several boards play one breath in step: give --port once per board, or name them with \
            --board NAME=PATH (or NAME=sim, NAME=sim:LINK for simulated ones). Two wrists; a belt whose \
            inhale swells from the lowest motor to the highest and whose exhale fades back (--spread \
            rise), its top motor weaker (--actuator):

              motorbreath --board left=/dev/ttyUSB0 --board right=/dev/ttyUSB1
              motorbreath --board low=/dev/ttyUSB0 --board mid=/dev/ttyUSB1 \\
                --board high=/dev/ttyUSB2 --spread rise --actuator high:strength=0.7
              motorbreath --board left=sim --board right=sim:ftdi --virtual-time

            All start at one instant, 2 s after the slowest prepare; the report names each board. A board \
            that goes away (unplugged, reset) is reconnected and rejoins at the breath's phase while the \
            others play on; one that never comes back ends only its part (exit 1 once the others end), or \
            every board at once with --all-or-nothing.
            """
    )

    @OptionGroup var board: PlayBoardArguments

    @OptionGroup var breath: BreathArguments

    @OptionGroup(title: "Calibration") var calibration: ProfileArguments

    @Option(parsing: .unconditional, help: "Frames per second sent to the board (50...1000) (default: 250).", transform: OptionValue.int(50...1000))
    var frameRate: Int = 250

    @Option(help: "Motor model the frames are shaped for: erm or lra (the board's INFO says which it drives).",
            transform: MotorKind.value)
    var motor: MotorKind?

    @Flag(help: "Send the intended intensity as the duty, with no motor compensation.")
    var noCompensation = false

    @Flag(help: "Skip the warm-up (an ERM is spun up to a faint floor for 0.3 s so the first cue is on time).")
    var noWarmup = false

    @Option(help: "Simulated link and board clock (with --simulate): latency=16ms,jitter=8ms,drift=500ppm,corrupt=0.01, or a USB-serial adapter: ftdi, ftdi-1ms (or ftdi,timer=1ms), ch340, cp2102, cdc, with baud= and the same impairments (docs/link-models.md).",
            transform: SimLink.value)
    var simLink: SimLink?

    @Flag(help: "With --simulate (or every --board simulated): run the whole session in virtual time, as fast as the CPU allows.")
    var virtualTime = false

    @Option(parsing: .unconditional, help: "Random seed of the simulated link (default: 1).", transform: OptionValue.uint64)
    var seed: UInt64 = 1

    @Flag(help: "Repeat the breath until stopped (q, Ctrl-C, or a finish command ends it after the breath playing).")
    var loop = false

    @Flag(help: "With several boards: the first board that fails for good (gone and not back after the reconnect attempts) stops every board at once, motor off. Without it, it ends only its own part and the others play on.")
    var allOrNothing = false

    @Option(help: "Take commands as JSON lines from standard input (-) and write events as JSON lines to standard output (see docs/control.md).")
    var control: String?

    @Option(help: "Listen on this Unix socket for controlling programs: commands in, events out, as JSON lines (see docs/control.md).")
    var controlSocket: String?

    @Option(help: ArgumentHelp("Permissions of the control socket, octal: 600 (the default) lets only you connect, 660 your group too, 666 everyone.", valueName: "mode"),
            transform: SocketMode.value)
    var controlMode: SocketMode = .ownerOnly

    @Flag(help: "In a terminal, ignore the keys (up/down intensity, left/right pace, space pause, f finish, q quit).")
    var noKeys = false

    @Option(parsing: .unconditional, help: "The board turns the motor off after this many ms without hearing the host (20...10000). Shorter stops a crashed host's motor sooner; longer rides out longer host stalls (default: 200).",
            transform: OptionValue.int(20...10_000))
    var failsafeMs: Int = 200

    @Option(parsing: .unconditional, help: "Keep the host's steady traffic to the board within this percentage of the line (at --baud) where the frames leave room, by spacing clock exchanges up to 50 ms: at 1 kHz, u8, 115200 baud, about 12 % instead of 16 %, for a p99 timing error of about 0.26 ms instead of 0.18 ms. 100 never spaces them (1...100) (default: 12).",
            transform: OptionValue.int(1...100))
    var lineShare: Int = 12

    @Flag(help: "Print one JSON report on stdout at the end.")
    var json = false

    @Flag(help: "No live status line.")
    var quiet = false

    @Option(help: ArgumentHelp("What the live line shows on a terminal: status (cycle, phase, countdown, bar, link health) or breath (the phase, the seconds left and a calm full-width bar to follow with the eyes).", valueName: "status|breath"))
    var view: ViewKind = .status

    func validate() throws {
        guard !allOrNothing || board.several else { throw ValidationError("--all-or-nothing is for several boards (--port or --board more than once)") }
        if board.several {
            try validateSeveral()
        } else if !(board.simulate || (simLink == nil && !virtualTime)) {
            throw ValidationError("--sim-link and --virtual-time work with --simulate only")
        }
        guard controlSocket != nil || controlMode == .ownerOnly else { throw ValidationError("--control-mode sets the permissions of --control-socket; give that too") }
        guard control == nil || control == "-" else { throw ValidationError("--control takes - (standard input and output)") }
        guard !(control == "-" && json) else { throw ValidationError("--control - writes events to standard output; the report is its last event (drop --json)") }
        guard !loop || breath.ahap == nil else { throw ValidationError("--loop repeats a breath pattern, not an AHAP file") }
        guard board.spread?.travel != .rise || breath.ahap == nil else {
            throw ValidationError("--spread rise moves a breath's swells; an AHAP file plays as it is on every board (--actuator's strength and offset apply)")
        }
    }

    func run() throws {
        Signals.install()
        // A live server on the control socket is refused before the board is touched.
        if let controlSocket {
            do { try ControlSocket.claim(controlSocket) } catch { throw fail("\(error)") }
        }
        let built = try breath.build()
        breath.rememberStrength()
        if !quiet { printNotices(built.notices) }
        let content = playbackContent(built, loop: loop)
        let stage = try openStage()
        defer { stage.close() }
        let playback = Playback(stage, options: sessionOptions, shaping: shaping, placements: board.several ? try board.placements() : [])
        playback.allOrNothing = allOrNothing
        let view = PlayView(built, names: stage.boards.map(\.name), quiet: quiet, kind: view)
        defer { view.finish() }  // every way out gives the cursor and colours back (finish is idempotent)
        view.follow(playback)
        var controls: PlayControls?
        defer { controls?.stop() }  // keys give the terminal back, the socket file goes
        let result: PlaybackResult
        do {
            announce(try playback.prepare())
            controls = try startControls(playback, content)
            view.controls = controls?.hub
            result = playback.play(content)
        } catch let error as PlaybackError {
            result = playback.result(failedToPrepare: error)
        }
        view.finish()
        playback.tellEnd(result)
        controls?.stop()
        try end(result)
    }
}
