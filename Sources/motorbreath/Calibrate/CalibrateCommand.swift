// `motorbreath calibrate`: a short guided procedure that measures the motor's start and stop thresholds,
// the weakest level felt on a body spot and the strongest comfortable one, with staircases, and saves
// them as a profile per board and spot that play, render and palette then use.

import ArgumentParser
import BoardAccess
import Breath
import Calibration
import Foundation
import MotorSession
import MotorWire
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
            transform: OptionValue.spot)
    var spot: String = "wrist"

    @Option(parsing: .unconditional, help: "With --simulate: the seed that picks the simulated person and their answers (default: 1).",
            transform: OptionValue.uint64)
    var personSeed: UInt64 = 1

    @Option(help: "With --simulate: the motor the simulated person feels, reference (80 ms, 15 % start threshold) or slower (100 ms, 18 %) (default: reference).",
            transform: OptionValue.choice(["reference", "slower"]))
    var simMotor: String = "reference"

    @Flag(help: "Measure, but do not save the profile.")
    var noSave = false

    @Flag(help: "Print the result as one JSON object on stdout.")
    var json = false

    /// The simulated board's motor.
    var simulatedMotor: ERMModel {
        simMotor == "slower" ? ERMModel(riseTau: 0.100, fallTau: 0.100, startThreshold: 0.18)
            : ERMModel(riseTau: 0.080, fallTau: 0.080, startThreshold: 0.15)
    }

    func run() throws {
        Signals.install()
        let simulate = board.simulate
        let connected = try board.connect(quiet: json) { .simulated(SimWorld(pacing: .virtual, seed: personSeed)) }
        defer { connected.close() }
        let world = connected.world
        var options = board.connection.sessionOptions
        options.allowReverse = false
        let session = connected.session(options: options)
        session.shouldStop = { Signals.pending != 0 }
        let keys = simulate ? nil : AnswerKeys()
        defer { keys?.restore() }
        let prepared: Prepared
        do { prepared = try session.prepare() } catch { throw fail(error) }
        let lra = prepared.info.motorKind == .lra
        // The spin-up task times pushes of a few tens of ms: the board's finest frames (at most 1 ms).
        let fastest = min(1000, Int(prepared.info.maxFrameRateHz))
        if fastest > options.frameRate {
            session.options.frameRate = fastest
            do { _ = try session.prepare() } catch { throw fail(error) }
        }
        say("board: \(prepared.info.displayName), \(lra ? "LRA" : "ERM")")
        if keys?.isTerminal == false { say("(answers are read from standard input: y or space = yes, n = no, q = stop)") }

        let player = TrialPlayer(session: session, world: world)
        var rig = simulate ? SimulatedRig(motor: simulatedMotor, person: .random(seed: personSeed)) : nil
        var procedure = CalibrationProcedure(lra: lra)
        var shown: CalibrationTask?
        var outcome: Answer = .yes  // .quit after q; .no when the answers ran out (end of input)
        do {
            while let task = procedure.task, let stimulus = procedure.stimulus {
                if task != shown {
                    shown = task
                    say("")
                    say("\(procedure.tasks.firstIndex(of: task)! + 1)/\(procedure.tasks.count)  \(task.name): \(task.instructions(spot: spot))")
                    if let keys {
                        say("Press space when ready (q stops).")
                        let got = keys.next()
                        guard let a = got, a != .quit else { outcome = got == .quit ? .quit : .no; break }
                    }
                }
                let trial = procedure.staircase.trials + 1
                progress("  trial \(trial)  level \(percent(procedure.level))  reversals \(procedure.staircase.reversalLevels.count)/\(procedure.staircase.rule.reversals)  ")
                let timeline = try player.play(stimulus)
                if Signals.pending != 0 { break }
                let yes: Bool
                if var r = rig {
                    let felt = TrialPlayer.judged(timeline ?? [], stimulus: stimulus, motor: r.motor)
                    yes = r.person.answer(amplitude: felt, touch: task.touch, comfort: task == .comfortMax)
                    rig = r
                } else {
                    progress("\(task.question) (space = yes, n = no) ")
                    keys?.drain()
                    let got = keys?.next()
                    guard let a = got, a != .quit else { outcome = got == .quit ? .quit : .no; break }
                    yes = a == .yes
                }
                say(yes ? "yes" : "no")
                procedure.answer(yes: yes)
                if let r = procedure.results[task], procedure.task != task {
                    say("  \(task.name): \(percent(r.estimate)) (spread \(percent(r.spread)), \(r.reversals) reversals, \(r.trials) trials)")
                }
            }
        } catch {
            let message = error.description
            _ = session.channel.stopNow(timeoutMs: options.replyTimeoutMs)
            if Signals.pending != 0 { throw ExitCode(Signals.exitCode) }
            throw fail(message)
        }
        let off = session.channel.stopNow(timeoutMs: options.replyTimeoutMs)
        if Signals.pending != 0 {
            say("\nstopped, nothing saved; motor \(off ? "off" : "STATE UNKNOWN")")
            throw ExitCode(Signals.exitCode)
        }
        if !procedure.done {
            throw fail("calibration stopped\(outcome == .quit ? " (q)" : " (no more answers)"); nothing saved; motor \(off ? "off" : "STATE UNKNOWN")")
        }
        let iso = ISO8601DateFormatter().string(from: Date())
        let profile = CalibrationProfile(
            procedure: procedure, board: CalibrationProfile.boardID(prepared.info.uniqueID), boardName: prepared.info.displayName,
            spot: spot, lra: lra, created: iso)
        var path: String?
        if !noSave {
            do { path = try ConfigStore().save(profile).path } catch { throw fail("\(error)") }
        }
        say("")
        say("motor starts at \(percent(profile.startThreshold)), stalls below \(percent(profile.stopThreshold)); felt on your \(spot) from \(percent(profile.feltThreshold)), comfortable up to \(percent(profile.comfortMax)); lag \(Int((profile.lagSeconds * 1000).rounded())) ms (\(profile.lagSource == CalibrationProfile.lagFromTask ? "from the spin-up time you felt" : "the reference motor's: not measured"))")
        say(path.map { "saved profile \(profile.name): \($0)" } ?? "not saved (--no-save)")
        say("motor \(off ? "off" : "STATE UNKNOWN")")
        if json {
            var truth: [String: Double]?
            if let rig {
                truth = Dictionary(uniqueKeysWithValues: procedure.tasks.map { ($0.rawValue, rig.truth($0)) })
            }
            try printJSON(CalibrationReport(profile: profile, path: path, trials: procedure.trials,
                                            simulatedTruth: truth, motorOffAtExit: off))
        }
        if !off { throw fail("could not confirm the motor is off") }
    }

    func say(_ line: String) { Stderr.write(line + "\n") }
    func progress(_ text: String) { Stderr.write(text) }
    func percent(_ x: Double) -> String { "\(fixed(x * 100, 1)) %" }
}

/// `calibrate --json`.
struct CalibrationReport: Encodable {
    var profile: CalibrationProfile
    var path: String?
    var trials: Int
    var simulatedTruth: [String: Double]?
    var motorOffAtExit: Bool

    enum CodingKeys: String, CodingKey {
        case profile, path, trials
        case simulatedTruth = "simulated_truth"
        case motorOffAtExit = "motor_off_at_exit"
    }
}
