// The felt error of a breath measured through the accelerometer: rendered for a shaping model, played on
// the physical motor, its vibration read back and compared with what the pattern intends.
// SPDX-License-Identifier: Apache-2.0

import Breath

/// The felt error measured, not modeled: RMS and worst of (measured felt − intended) at every frame end, % of
/// full scale, and the frames and samples it rests on.
public struct MeasuredFelt: Sendable, Equatable, Codable {
    public var rmsPercent: Double
    public var maxErrorPercent: Double
    /// Breath time of the worst error, s.
    public var worstAtSeconds: Double
    public var frames: Int
    public var samples: Int
}

/// `Fidelity` through the accelerometer: renders `plan` shaped for `shapeFor` (compensated, as a play does,
/// with `feltRange` if given), plays the frames on the motor file's physical motor on a `SimulatedBench`,
/// turns the measured envelope into felt amplitude (`FeltScale`, normalised by the full-drive steady
/// amplitude `fullScaleG`) and compares it at every frame end with the pattern's intended intensity, as
/// `Fidelity.measure` does with its model. The envelope here is 20 ms wide (steps under about 25 ms are not
/// felt apart) and gated at 3σ of the sensor's noise, so silence reads as silence.
public enum FeltMeasurement {
    public static func measure(plan: BreathPlan, shapeFor: MotorProfile, feltRange: FeltRange? = nil, file: MotorFile,
                               fullScaleG: Double, seed: UInt64, frameRate: Int = 250,
                               resolution: DutyResolution = .i16, windowSeconds: Double = 0.02) -> MeasuredFelt {
        let stimulus = Stimulus.breathAlone(plan, motor: shapeFor, resolution: resolution, feltRange: feltRange, frameRate: frameRate)
        let breath = stimulus.parts[1]
        let recording = SimulatedBench(file: file, seed: seed).record(stimulus)
        return measure(recording, breath: breath, plan: plan, kind: file.kind, fullScaleG: fullScaleG, frameRate: frameRate,
                       windowSeconds: windowSeconds)
    }

    /// The felt error of `plan` played as `breath` (a part of the stimulus `recording` was made from: frame
    /// 0 is the recording's first drive point), however it was recorded: by a board's accelerometer over the
    /// wire (`bench --vibration`) or a `SimulatedBench`.
    public static func measure(_ recording: VibrationRecording, breath: StimulusPart, plan: BreathPlan, kind: MotorFile.Kind,
                               fullScaleG: Double, frameRate: Int = 250, windowSeconds: Double = 0.02) -> MeasuredFelt {
        // 20 ms: the skin does not tell steps under about 25 ms apart; gated at 3σ of the noise.
        let env = VibrationEnvelope(recording, linear: kind == .lra, windowSeconds: windowSeconds, gate: 3)
        let scale = FeltScale(kind: kind, fullScaleG: fullScaleG)
        var reference = Envelope.Cursor(Envelope(plan.haptics))
        let dt = 1 / Double(frameRate)
        let start = env.time(ofTick: recording.drive.first?.tick ?? env.startTick) + Double(breath.startFrame) * dt
        var sum = 0.0, worst = 0.0, worstAt = 0.0
        for k in 1...max(1, breath.onFrames) {
            let t = Double(k) * dt
            let j = max(0, min(env.index(at: start + t), env.values.count - 1))
            let e = reference.intensity(at: t) - scale.felt(env.values.isEmpty ? 0 : env.values[j])
            sum += e * e
            if abs(e) > worst { worst = abs(e); worstAt = t }
        }
        return MeasuredFelt(rmsPercent: 100 * (sum / Double(max(1, breath.onFrames))).squareRoot(), maxErrorPercent: 100 * worst,
                            worstAtSeconds: worstAt, frames: breath.onFrames, samples: recording.samples.count)
    }
}
