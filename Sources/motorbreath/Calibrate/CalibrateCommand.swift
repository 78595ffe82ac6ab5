// `motorbreath calibrate`: a short guided procedure that measures the motor's start and stop thresholds,
// the weakest level felt on a body spot and the strongest comfortable one, with staircases, and saves
// them as a profile per board and spot that play, render and palette then use.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import Breath
import Calibration
import Foundation
import MotorSession
import Playback
import SerialLink
import SimBoard

struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Measure the motor and what you feel on a body spot (about 3 minutes), and save a profile.",
        discussion: """
            Five short measurements, each a staircase as in a hearing test: the level goes down while you \
            answer yes and up when you answer no, and the answers where it turns are averaged. First you \
            hold the motor between finger and thumb (where does it start turning from rest, where does it \
            stall while spinning, how short a push starts it: its spin-up time, from which its lag \
            follows), then you place it on the body spot (the weakest level you feel there, the strongest \
            that stays comfortable for minutes).

            With --simulate, a simulated person answers, in virtual time (no keys).

            Keys: space or enter = yes, n = no, q = stop (nothing saved). Ctrl-C stops with the motor off.

            The profile is saved per board (its unique id from INFO) and spot in \
            $XDG_CONFIG_HOME/motorbreath/profiles (else ~/.config/motorbreath/profiles). With it, play, render \
            and palette map intensity 0...1 onto what you feel (subtle is felt, strong is not too strong) and \
            shape frames for the measured thresholds and lag. The lag comes from what you feel, through the \
            motor model (the board cannot measure back-EMF); an LRA board skips the motor measurements.

            Examples:
              motorbreath calibrate --port /dev/ttyUSB0 --spot wrist
              motorbreath calibrate --simulate --person-seed 3 --json
              motorbreath --port /dev/ttyUSB0 --profile none   # play without it
            """
    )

    @OptionGroup var board: BoardArguments

    @Option(help: "Body spot the profile is for: wrist, palm, abdomen, or any word (default: wrist).",
            transform: Spot.value)
    var spot: Spot = .wrist

    @Option(parsing: .unconditional, help: "With --simulate: the seed that picks the simulated person and their answers (default: 1).",
            transform: OptionValue.uint64)
    var personSeed: UInt64 = 1

    @Option(help: "With --simulate: the motor the simulated person feels, reference (80 ms, 15 % start threshold) or slower (100 ms, 18 %) (default: reference).",
            transform: SimulatedMotor.value)
    var simMotor: SimulatedMotor = .reference

    @Flag(help: "Measure, but do not save the profile.")
    var noSave = false

    @Flag(help: "Print the result as one JSON object on stdout.")
    var json = false

    func run() throws {
        Signals.install()
        // Checked before the first trial: minutes of answers are not lost to a folder that cannot be written.
        if !noSave {
            do { try ConfigStore().checkWritable() } catch { throw fail("\(error); calibration not started (--no-save measures without saving)") }
        }
        let stage = try board.openStage(quiet: json, simulated: .simulated(), pacing: .virtual, seed: personSeed)
        defer { stage.close() }
        let connected = stage.board
        var options = board.connection.sessionOptions
        options.allowReverse = false
        let session = connected.session(options: options)
        session.shouldStop = { Signals.pending != 0 }
        let keys = board.simulate ? nil : AnswerKeys()
        defer { keys?.restore() }
        let player = TrialPlayer(session: session, world: connected.world)
        let prepared: Prepared
        do { prepared = try player.prepare() } catch { throw fail(error) }
        let lra = prepared.info.motorKind == .lra
        say("board: \(prepared.info.displayName), \(lra ? "LRA" : "ERM")")
        if keys?.isTerminal == false { say("(answers are read from standard input: y or space = yes, n = no, q = stop)") }
        var console = CalibrationConsole(spot: spot.name, keys: keys,
                                         rig: board.simulate ? SimulatedRig(motor: simMotor.model, person: .random(seed: personSeed)) : nil)
        var run = CalibrationRun(lra: lra)
        let end: CalibrationRun.End
        do { end = try run.run(on: player, answerer: &console, shouldStop: { Signals.pending != 0 }) } catch {
            _ = session.channel.stopNow(timeoutMs: options.replyTimeoutMs)
            if Signals.pending != 0 { throw ExitCode(Signals.exitCode) }
            throw fail(error)
        }
        let off = session.channel.stopNow(timeoutMs: options.replyTimeoutMs)
        if Signals.pending != 0 {
            say("\nstopped, nothing saved; motor \(off ? "off" : "STATE UNKNOWN")")
            throw ExitCode(Signals.exitCode)
        }
        guard end == .done else {
            throw fail("calibration stopped\(end == .quit ? " (q)" : " (no more answers)"); nothing saved; motor \(off ? "off" : "STATE UNKNOWN")")
        }
        try save(run.procedure, prepared: prepared, lra: lra, rig: console.rig, motorOff: off)
    }

    /// The profile from the finished procedure: saved (unless --no-save), said, and with --json printed. If it
    /// cannot be saved after all, it is printed on standard output (in the --json report, or alone) and the
    /// error line says so: the measurement is not lost.
    func save(_ procedure: CalibrationProcedure, prepared: Prepared, lra: Bool, rig: SimulatedRig?, motorOff off: Bool) throws {
        let profile = CalibrationProfile(
            procedure: procedure, board: CalibrationProfile.boardID(prepared.info.uniqueID), boardName: prepared.info.displayName,
            spot: spot.name, lra: lra, created: ISO8601DateFormatter().string(from: Date()))
        var path: String?, unsaved: String?
        if !noSave {
            do { path = try ConfigStore().save(profile).path } catch { unsaved = "\(error)" }
        }
        say("")
        say(profile.summary(spot: spot.name))
        say(path.map { "saved profile \(profile.name): \($0)" } ?? (unsaved == nil ? "not saved (--no-save)" : "NOT SAVED"))
        say("motor \(off ? "off" : "STATE UNKNOWN")")
        if json {
            try printJSON(CalibrationReport(profile: profile, path: path, procedure: procedure, rig: rig, motorOffAtExit: off))
        } else if unsaved != nil {
            try printJSON(profile)
        }
        if !off { throw fail("could not confirm the motor is off") }
        if let unsaved { throw fail("\(unsaved); the measured profile is on standard output\(json ? ", in the report" : ""): save it as \(profile.name).json in the profiles folder") }
    }
}
