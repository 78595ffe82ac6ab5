// `motorbreath play` (the default): prepare the board, stream the breath, stop with the motor off.

import ArgumentParser
import Breath
import MotorControl
import Calibration
import Foundation
import MotorSession
import MotorWire
import SerialLink
import SimBoard
import TimingBench

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
            """
    )

    @Flag(help: "Play on the built-in simulated board (no hardware needed).")
    var simulate = false

    @OptionGroup(title: "Board connection") var connection: PortArguments

    @OptionGroup var breath: BreathArguments

    @OptionGroup(title: "Calibration") var calibration: ProfileArguments

    @Option(parsing: .unconditional, help: "Frames per second sent to the board (50...1000) (default: 250).", transform: OptionValue.int(50...1000))
    var frameRate: Int = 250

    @Option(help: "Motor model the frames are shaped for: erm or lra (the board's INFO says which it drives).",
            transform: OptionValue.choice(["erm", "lra"]))
    var motor: String?

    @Flag(help: "Send the intended intensity as the duty, with no motor compensation.")
    var noCompensation = false

    @Flag(help: "Skip the warm-up (an ERM is spun up to a faint floor for 0.3 s so the first cue is on time).")
    var noWarmup = false

    @Option(help: "Simulated link and board clock, e.g. latency=16ms,jitter=8ms,drift=500ppm,corrupt=0.01 (with --simulate).",
            transform: OptionValue.simLink)
    var simLink: String?

    @Flag(help: "With --simulate: run the whole session in virtual time, as fast as the CPU allows.")
    var virtualTime = false

    @Option(parsing: .unconditional, help: "Random seed of the simulated link (default: 1).", transform: OptionValue.uint64)
    var seed: UInt64 = 1

    @Flag(help: "Repeat the breath until stopped (q, Ctrl-C, or a finish command ends it after the breath playing).")
    var loop = false

    @Option(help: "Take commands as JSON lines from standard input (-) and write events as JSON lines to standard output (see docs/control.md).")
    var control: String?

    @Option(help: "Listen on this Unix socket for controlling programs: commands in, events out, as JSON lines (see docs/control.md).")
    var controlSocket: String?

    @Option(help: ArgumentHelp("Permissions of the control socket, octal: 600 (the default) lets only you connect, 660 your group too, 666 everyone.", valueName: "mode"),
            transform: OptionValue.socketMode)
    var controlMode: Int = 0o600

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
        guard simulate || connection.port != nil else {
            throw ValidationError("say where the board is: --port /dev/ttyUSB0, or --simulate to run without one")
        }
        guard !(simulate && connection.port != nil) else { throw ValidationError("use --simulate or --port, not both") }
        guard simulate || (simLink == nil && !virtualTime) else {
            throw ValidationError("--sim-link and --virtual-time work with --simulate only")
        }
        guard controlSocket != nil || controlMode == 0o600 else { throw ValidationError("--control-mode sets the permissions of --control-socket; give that too") }
        guard control == nil || control == "-" else { throw ValidationError("--control takes - (standard input and output)") }
        guard !(control == "-" && json) else { throw ValidationError("--control - writes events to standard output; the report is its last event (drop --json)") }
        guard !loop || breath.ahap == nil else { throw ValidationError("--loop repeats a breath pattern, not an AHAP file") }
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
        var options = connection.sessionOptions
        options.frameRate = frameRate
        options.allowReverse = !noCompensation
        options.failsafeMs = UInt16(failsafeMs)
        options.lineShare = Double(lineShare) / 100

        let link: ByteLink
        var resolvedPort = ""
        var clock: HostClock = SystemClock()
        var world: SimWorld?
        if simulate {
            var impairments = LinkImpairments()
            if let simLink {
                do { impairments = try LinkImpairments.parse(simLink) } catch { throw fail(error) }
            }
            let w = SimWorld(impairments: impairments, pacing: virtualTime ? .virtual : .realTime, seed: seed)
            link = w.hostLink
            clock = w.hostClock
            world = w
        } else {
            do {
                resolvedPort = try connection.resolvedPath()
                link = try connection.open(resolvedPort, quiet: quiet)
            } catch {
                // The port never opened: scripts still get a report, with the reason (already printed).
                if json {
                    var failed = PlayReport()
                    failed.error = "the port could not be opened"
                    try printJSON(failed)
                }
                throw error
            }
        }
        defer { link.close() }

        let session = BreathSession(link: link, clock: clock, options: options)
        if let world {
            session.reopen = { () throws(LinkError) -> ByteLink in world.hostLink }
        } else if !resolvedPort.isEmpty {
            let path = resolvedPort
            let settings = connection.settings
            session.reopen = { () throws(LinkError) -> ByteLink in try PortOpener.open(path: path, settings: settings) }
        }
        var view = LiveView(plan: built.plan, pattern: built.pattern, duration: built.duration, quiet: quiet, kind: view)
        defer { view.finish() }  // every way out gives the cursor and colours back (finish is idempotent)
        let report: PlayReport
        var controls: PlayControls?
        defer { controls?.stop() }  // keys give the terminal back, the socket file goes
        do {
            let prepared = try session.prepare()
            if !quiet {
                let ceiling = prepared.limits.map { ", drive ceiling \(Int((Double($0.ceilingLevel) / 327.67).rounded())) %" } ?? ""
                Stderr.write("board: \(prepared.info.displayName), \(prepared.info.motorKind == .lra ? "LRA" : "ERM")\(ceiling), prepared in \(Int(Double(prepared.prepareNs) / 1e6)) ms\n")
            }
            let base = try motor.map(motorProfile) ?? session.motor
            let calibrated = try calibration.forBoard(uniqueID: prepared.info.uniqueID, boardName: prepared.info.name.text)
            let profile = calibrated?.motor(or: base) ?? base
            if let calibrated, !quiet {
                Stderr.write("profile: \(calibrated.name): felt \(fixed(calibrated.feltThreshold * 100, 1))...\(fixed(calibrated.comfortMax * 100, 1)) %, motor starts at \(fixed(calibrated.startThreshold * 100, 1)) %\n")
            }
            if case .lra = profile, prepared.info.lraResonanceDeciHz == 0 {
                Stderr.write("motorbreath: note: the LRA board reports no resonance frequency; its carrier may be off resonance\n")
            }
            controls = try startControls(session: session, plan: built.plan, prepared: prepared)
            view.controls = controls?.hub
            // In simulation the board's true clock is known: judge every frame against it, as it plays (a
            // steered breath against what the host meant at the time: the live source itself).
            var truth: TrueTiming?
            var warmup = 0.0
            session.willPlay = { player, frames in
                warmup = Double(frames.warmupFrames) / Double(frameRate)
                view.live = frames.steerable
                if let world {
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
            var r: PlayReport
            if let plan = built.plan {
                r = try session.play(plan.pattern, breath: plan.options, loop: loop, motor: profile,
                                     compensate: !noCompensation, warmup: noWarmup ? 0 : 0.3, feltRange: calibrated?.feltRange,
                                     warmupMargin: calibrated == nil ? 1.5 : CalibrationProfile.warmupMargin)
            } else {
                r = try session.play(pattern: built.pattern, duration: built.duration, motor: profile,
                                     compensate: !noCompensation, warmup: noWarmup ? 0 : 0.3, feltRange: calibrated?.feltRange,
                                     warmupMargin: calibrated == nil ? 1.5 : CalibrationProfile.warmupMargin)
            }
            r.profile = calibrated?.name
            if let truth {
                r.framesPlayed = truth.framesPlayed
                r.startErrorUs = truth.startErrorUs
                r.scheduleErrorUs = truth.scheduleErrorUs
                r.underruns = truth.underruns
                r.wrongDuties = truth.wrongDuties
            }
            report = r
            controls?.finished(report)
        } catch let error as SessionError {
            view.finish()
            var message = error.description
            if case .noHello = error, let hint = USBSerialTuning.modemManagerHint(forPort: resolvedPort) {
                message += "; \(hint)"
            }
            // Scripts learn what happened from the same report, with an error field.
            var failed = session.player?.report ?? PlayReport()
            if session.player == nil { failed.motorOffAtExit = session.channel.stopNow(timeoutMs: options.replyTimeoutMs) }
            failed.interrupted = Signals.pending != 0
            failed.error = failed.interrupted ? nil : message
            if json { try printJSON(failed) }
            controls?.failed(message, report: failed)
            if Signals.pending != 0 { throw ExitCode(Signals.exitCode) }
            throw fail(message)
        }
        view.finish()
        if json {
            try printJSON(report)
        } else if !quiet {
            Stderr.write("played \(report.framesPlayed)/\(report.framesTotal) frames, \(report.framesLost) lost, \(report.underruns) underruns, \(report.playedLate) late, start error \(report.startErrorUs) µs, motor \(report.motorOffAtExit ? "off" : "STATE UNKNOWN")\n")
        }
        // Stopped by a signal: 128 + its number. By `stop` or the `q` key: 130, as Ctrl-C (docs/control.md).
        if report.interrupted { throw ExitCode(Signals.pending != 0 ? Signals.exitCode : 130) }
        if !report.motorOffAtExit { throw fail("could not confirm the motor is off") }
    }
}
