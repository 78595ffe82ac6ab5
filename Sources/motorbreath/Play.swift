// `motorbreath play` (the default): prepare the board, stream the breath, stop with the motor off.

import ArgumentParser
import Breath
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
            Patterns: 4-7-8 (inhale 4 s, hold 7 s, exhale 8 s), box (4-4-4-4), coherent (5.5-5.5),
            or your own in-hold-out[-holdout] seconds such as 5-0-5 or 4-2-6-2.
            Ctrl-C stops the motor at once and exits 130.
            """
    )

    @Flag(help: "Play on the built-in simulated board (no hardware needed).")
    var simulate = false

    @OptionGroup(title: "Board connection") var connection: PortArguments

    @OptionGroup var breath: BreathArguments

    @Option(help: "Frames per second sent to the board (50...1000).")
    var frameRate: Int = 250

    @Option(help: "Motor model the frames are shaped for: erm or lra (the board's INFO says which it drives).")
    var motor: String?

    @Flag(help: "Send the intended intensity as the duty, with no motor compensation.")
    var noCompensation = false

    @Flag(help: "Skip the warm-up (an ERM is spun up to a faint floor for 0.3 s so the first cue is on time).")
    var noWarmup = false

    @Option(help: "Simulated link and board clock, e.g. latency=16ms,jitter=8ms,drift=500ppm,corrupt=0.01 (with --simulate).")
    var simLink: String?

    @Flag(help: "With --simulate: run the whole session in virtual time, as fast as the CPU allows.")
    var virtualTime = false

    @Option(help: "Random seed of the simulated link.")
    var seed: UInt64 = 1

    @Flag(help: "Print one JSON report on stdout at the end.")
    var json = false

    @Flag(help: "No live status line.")
    var quiet = false

    func validate() throws {
        guard (50...1000).contains(frameRate) else { throw ValidationError("--frame-rate must be 50...1000") }
        guard simulate || connection.port != nil else {
            throw ValidationError("say where the board is: --port /dev/ttyUSB0, or --simulate to run without one")
        }
        guard !(simulate && connection.port != nil) else { throw ValidationError("use --simulate or --port, not both") }
        guard simulate || (simLink == nil && !virtualTime) else {
            throw ValidationError("--sim-link and --virtual-time work with --simulate only")
        }
    }

    func run() throws {
        Signals.install()
        let built = try breath.build()
        for n in built.notices where !quiet { Stderr.write("motorbreath: note: \(n)\n") }
        var options = SessionOptions()
        options.frameRate = frameRate
        options.allowReverse = !noCompensation
        options.helloTimeoutMs = connection.bootWait

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
            resolvedPort = try connection.resolvedPath()
            link = try connection.open(resolvedPort, quiet: quiet)
        }
        defer { link.close() }

        let channel = BoardChannel(link: link, clock: clock)
        var view = LiveView(plan: built.plan, pattern: built.pattern, duration: built.duration, quiet: quiet)
        let report: PlayReport
        do {
            let prepared = try channel.prepare(options: options)
            if !quiet {
                Stderr.write("board: \(prepared.info.displayName), \(prepared.info.motorKind == .lra ? "LRA" : "ERM"), prepared in \(Int(Double(prepared.prepareNs) / 1e6)) ms\n")
            }
            let profile = try motor.map(motorProfile) ?? (prepared.info.motorKind == .lra ? .referenceLRA : .referenceERM)
            let resolution: DutyResolution = prepared.config.dutyFormat == .i16 ? .i16 : .u8
            if case .lra = profile, prepared.info.lraResonanceDeciHz == 0 {
                Stderr.write("motorbreath: note: the LRA board reports no resonance frequency; its carrier may be off resonance\n")
            }
            let renderer = FrameRenderer(pattern: built.pattern, duration: built.duration, frameRate: frameRate,
                                         resolution: resolution, motor: profile, compensate: !noCompensation,
                                         warmup: noWarmup ? 0 : 0.3)
            let warmup = renderer.warmupSeconds
            let frames = FrameWindow(renderer)
            let player = Player(channel: channel, prepared: prepared, options: options)
            if let world {
                player.reopen = { () throws(LinkError) -> ByteLink in world.hostLink }
            } else if !resolvedPort.isEmpty {
                let path = resolvedPort
                let settings = connection.settings
                player.reopen = { () throws(LinkError) -> ByteLink in try PortOpener.open(path: path, settings: settings) }
            }
            var r = try player.play(frames, onStatus: { live in
                var breathTime = live
                breathTime.elapsed -= warmup
                view.show(breathTime)
            }, shouldStop: { Signals.pending != 0 })
            if let world {
                // In simulation the board's true clock is known: judge every frame against it.
                let truth = TrueTiming.judge(world: world, player: player)
                r.startErrorUs = truth.startErrorUs
                r.scheduleErrorUs = truth.scheduleErrorUs
            }
            report = r
        } catch let error as SessionError {
            view.finish()
            if Signals.pending != 0 { throw ExitCode(Signals.exitCode) }
            if case .noHello = error, let hint = USBSerialTuning.modemManagerHint(forPort: resolvedPort) {
                throw fail("\(error); \(hint)")
            }
            throw fail(error)
        }
        view.finish()
        if json {
            try printJSON(report)
        } else if !quiet {
            Stderr.write("played \(report.framesPlayed)/\(report.framesTotal) frames, \(report.underruns) underruns, \(report.playedLate) late, start error \(report.startErrorUs) µs, motor \(report.motorOffAtExit ? "off" : "STATE UNKNOWN")\n")
        }
        if report.interrupted { throw ExitCode(Signals.exitCode) }
        if !report.motorOffAtExit { throw fail("could not confirm the motor is off") }
    }
}
