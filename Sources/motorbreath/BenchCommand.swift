// `motorbreath bench --port PATH`: the hardware bench test, on a real board or the emulated one.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import Calibration
import SafeOutput
import MotorSession
import Playback
import SerialLink

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Bench-test a board: round trips, clock drift, highest frame rate, schedule error, failsafe.",
        discussion: """
            Every timing figure except the round trip comes from the board's own clock: PLAYED reports \
            carry the tick each frame was output at, and the failsafe's STATUS the tick the motor went off. \
            Takes about 15 s plus --seconds. The motor runs at 20-80 % during the test.
            """
    )

    @OptionGroup(title: "Board connection") var connection: PortArguments

    @Option(parsing: .unconditional, help: "Seconds of the schedule measurement at 250 Hz (1...3600) (default: 10).",
            transform: OptionValue.double(1...3600))
    var seconds: Double = 10

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Measure the motor through the board's accelerometer instead (SENSE; a board with a sensor, or sim-board --motor-file): onset, peak g, stop and brake times, the drive-to-vibration curve, and the shaping model fitted to them. About 45 s; the motor runs up to full drive.")
    var vibration = false

    @Option(help: "With --vibration: write the drive and the measured vibration against board time as SVG to this file.")
    var svg: String?

    @Option(help: "With --vibration: save the fitted motor (lag, thresholds, braking) into the board's calibration profile for this body spot (its felt range kept); later plays there use it.", transform: Spot.value)
    var saveProfile: Spot?

    func run() throws {
        Signals.install()
        let stage = try connection.openStage(quiet: json)
        defer { stage.close() }
        let board = stage.board
        let port = board.portPath ?? ""
        let channel = board.channel()
        let options = connection.sessionOptions
        let progress = ProgressLine(label: "bench", quiet: json)
        defer { progress.finish() }  // the cursor comes back on every way out
        if vibration { return try measureVibration(channel, options, progress) }
        let r: BenchReport
        do {
            r = try Bench.run(channel: channel, base: options, seconds: seconds,
                              baud: PortOpener.isPseudoTerminal(path: port) ? nil : connection.baud, port: port,
                              progress: { progress.begin($0) },
                              shouldStop: {
                                  progress.tick()  // polled often: it keeps the step's seconds counting
                                  return Signals.pending != 0
                              })
        } catch {
            progress.finish()
            throw fail(error)
        }
        progress.finish()
        // Ctrl-C: the running step stopped the motor; there is no whole report to print.
        if r.interrupted { throw ExitCode(Signals.exitCode) }
        if json {
            try printJSON(r)
        } else {
            print(r.text)
        }
        if r.failsafeLatencyMs == nil || !r.failsafeMotorOff { throw fail("the failsafe did not turn the motor off") }
        if r.framesPlayed != r.framesTotal { throw fail("\(r.framesTotal - r.framesPlayed) frames were not played") }
    }

    /// --vibration: the motor measured through the board's accelerometer (VibrationBench).
    func measureVibration(_ channel: BoardChannel, _ options: SessionOptions, _ progress: ProgressLine) throws {
        let file: OutputFile?
        do { file = try svg.map(OutputFile.open) } catch { throw fail(error) }  // refused before the motor runs
        progress.begin("vibration: steps, a brake kick, a staircase, a ramp, a 4-7-8")
        let r: VibrationBenchResult
        do { r = try VibrationBench.run(channel: channel, base: options, shouldStop: { progress.tick(); return Signals.pending != 0 }) } catch { progress.finish(); throw fail(error) }
        progress.finish()
        if r.framesPlayed < r.framesTotal && Signals.pending != 0 { throw ExitCode(Signals.exitCode) }
        do { if let file, let plot = r.svg { try file.write(plot); try file.close() } } catch { throw fail(error) }
        if json { try printJSON(r) } else { print(r.vibration.text() + "\n" + r.identifiedText) }
        guard let spot = saveProfile else { return }
        guard let m = r.identified else { throw fail("no profile saved: \(r.identificationNote ?? "nothing was fitted")") }
        do { Stderr.write("saved the measured motor in profile \(try MeasuredMotorStore.save(m, uniqueID: r.uniqueID, boardName: r.board, spot: spot.name).profile.name)\n") } catch { throw fail("\(error)") }
    }
}
