// `motorbreath fidelity`'s table: the felt-vs-intended error of a breath on motor models, compensated or
// not, with braking and warm-up, and shaped with a profile the calibration measured of a simulated person.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation

/// The felt-vs-intended error of one breath in each of a fixed set of cases (motors, compensation,
/// braking, warm-up, a calibrated profile), and the table `motorbreath fidelity` prints of them.
///
///     let rows = FidelityTable.rows(pattern: try BreathPattern.parse("4-7-8"), frameRate: 250)
///     print(FidelityTable.lines(rows, speed: nil, pattern: "4-7-8", frameRate: 250).joined(separator: "\n"))
public enum FidelityTable {
    /// One case's errors (the field names are the JSON keys).
    public struct Row: Codable, Sendable {
        public var name: String
        public var rms_percent: Double
        public var worst_percent: Double
        public var onset_error_ms: Double
    }

    /// One case: its name, the resolution, the motor shaped for, the motor played on, compensation, warm-up.
    typealias Case = (String, DutyResolution, MotorProfile, MotorProfile, Bool, Double)

    /// Felt-vs-intended error of each case.
    public static func rows(pattern: BreathPattern, frameRate: Int) -> [Row] {
        let plan = BreathPlan(pattern: pattern)
        return cases().map { (name, res, shape, plant, comp, warmup) in
            // A calibrated profile's warm-up floor sits closer to its measured stop threshold.
            let margin = name.contains("calibrated") ? CalibrationProfile.warmupMargin : 1.5
            let r = Fidelity.measure(plan: plan, frameRate: frameRate, resolution: res, shapeFor: shape, plant: plant,
                                     compensate: comp, warmup: warmup, warmupMargin: margin)
            return Row(name: name, rms_percent: r.rmsPercent, worst_percent: r.maxErrorPercent, onset_error_ms: r.onsetErrorMs)
        }
    }

    /// The cases: the reference ERM, a slower ERM (uncalibrated, and calibrated by the simulated procedure: a
    /// seeded simulated person answering, whose start and stop thresholds and lag the shaper then uses), an LRA.
    static func cases() -> [Case] {
        let erm = MotorProfile.referenceERM
        let weaker = ERMModel(riseTau: 0.100, fallTau: 0.100, startThreshold: 0.18)
        let weakerERM = MotorProfile.erm(weaker)
        var rig = SimulatedRig(motor: weaker, person: SimulatedRig.typicalPerson(seed: 1))
        var measured = rig.profile(board: "sim", boardName: "simulated", spot: "wrist")
        let calibrated = measured.motorProfile
        // The thresholds alone, with the reference motor's lag: the lag is what matters on this motor.
        measured.lagSeconds = 0.080
        measured.lagSource = "reference"
        let thresholdsOnly = measured.motorProfile
        return [
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
    }

    /// The table as printed: what is measured, one line per case, then the render speeds (frames per second).
    public static func lines(_ rows: [Row], speed: (streaming: Double, naive: Double), pattern: String, frameRate: Int) -> [String] {
        var lines = [
            "Fidelity of \(pattern) at \(frameRate) Hz: modeled felt amplitude vs intended, every frame end.",
            "Reference ERM: time constant 80 ms, start threshold 15 %. Onset: first reaching 10 % of the peak.",
            "Calibrated profile: thresholds and lag (spin-up task) from the calibration against a simulated",
            "person (seed 1) on the slower motor.",
            "",
            pad("case", 52) + pad("RMS error", 10, left: true) + pad("worst", 9, left: true) + pad("onset", 11, left: true),
        ]
        for r in rows {
            lines.append(pad(r.name, 52) + pad("\(decimals(r.rms_percent, 2)) %", 10, left: true)
                         + pad("\(decimals(r.worst_percent, 1)) %", 9, left: true)
                         + pad("\(r.onset_error_ms >= 0 ? "+" : "")\(decimals(r.onset_error_ms, 0)) ms", 11, left: true))
        }
        return lines + [
            "",
            "Render speed, one core, 10-minute session:",
            "  streaming renderer (compensated, i16): \(decimals(speed.streaming / 1e6, 1)) M frames/s",
            "  naive per-frame pattern evaluation:    \(decimals(speed.naive / 1e6, 1)) M frames/s (\(decimals(speed.streaming / speed.naive, 0))x slower)",
        ]
    }

    /// `x` with `digits` decimals, as printf's "%.Nf".
    static func decimals(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }

    /// `text` padded with spaces to `n` characters, on the right (or the `left`).
    static func pad(_ text: String, _ n: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, n - text.count))
        return left ? fill + text : text + fill
    }
}
