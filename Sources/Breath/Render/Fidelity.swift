// How closely the felt vibration follows the intended one: RMS and worst error, and the inhale onset.
// SPDX-License-Identifier: Apache-2.0

/// Fidelity of one rendering played on one motor model.
public struct FidelityReport: Sendable, Equatable {
    /// RMS of (intended - felt) over all frame ends, % of full scale.
    public var rmsPercent: Double
    /// Largest |intended - felt|, % of full scale.
    public var maxErrorPercent: Double
    /// Felt onset minus intended onset of the first swell, ms (onset: first reaching 10 % of the peak).
    public var onsetErrorMs: Double
}

/// How closely the felt vibration follows the intended one: renders a plan, plays its duties on a motor
/// model, and reports the RMS and worst error and the inhale onset error (``FidelityReport``).
///
///     let plan = BreathPlan(pattern: try BreathPattern.parse("4-7-8"), options: BreathOptions())
///     let report = Fidelity.measure(plan: plan, shapeFor: .referenceERM, plant: .referenceERM,
///                                   compensate: true)
///     print(report.rmsPercent, report.onsetErrorMs)
public enum Fidelity {
    /// Renders `plan` shaped for `shapeFor` (or unshaped), plays the duties on the `plant` model, and
    /// compares the plant's amplitude with the intended intensity at every frame end.
    public static func measure(plan: BreathPlan, frameRate: Int = 250, resolution: DutyResolution = .u8,
                               shapeFor: MotorProfile, plant: MotorProfile, compensate: Bool,
                               warmup: Double = 0, warmupMargin: Double = 1.5) -> FidelityReport {
        var renderer = FrameRenderer(pattern: plan.haptics, duration: plan.duration, frameRate: frameRate,
                                     resolution: resolution, motor: shapeFor, compensate: compensate, warmup: warmup,
                                     warmupMargin: warmupMargin)
        let skip = renderer.warmupFrames
        var reference = Envelope.Cursor(Envelope(plan.haptics))
        var motor: any MotorModel = {
            switch plant {
            case .erm(let m): return m
            case .lra(let m): return m
            }
        }()
        let dt = 1 / Double(frameRate)
        let threshold = 0.1 * plan.options.peak * plan.options.strength
        var sumSquares = 0.0, worst = 0.0
        var intendedOnset: Double?, feltOnset: Double?
        var raw: [UInt16] = []
        var frame = 0
        while renderer.render(count: 4096, into: &raw) > 0 {
            for value in raw {
                let drive: Double
                switch resolution {
                case .u8: drive = Double(value) / 255
                case .u16: drive = Double(value) / 65535
                case .i16: drive = Double(Int16(bitPattern: value)) / 32767
                }
                motor.advance(drive: drive, seconds: dt)
                frame += 1
                guard frame > skip else { continue }  // warm-up: before the breath starts
                let t = Double(frame - skip) * dt
                let intended = reference.intensity(at: t)
                let e = intended - motor.amplitude
                sumSquares += e * e
                worst = max(worst, abs(e))
                if intendedOnset == nil && intended >= threshold { intendedOnset = t }
                if feltOnset == nil && motor.amplitude >= threshold { feltOnset = t }
            }
            raw.removeAll(keepingCapacity: true)
        }
        // Both onsets are frame times: their difference is whole frames, kept exact (5 frames at 250 Hz is
        // 20 ms, not 20.000000000000018 ms) by rounding to the nanosecond.
        let onset = ((feltOnset ?? .infinity) - (intendedOnset ?? 0)) * 1e9
        return FidelityReport(rmsPercent: 100 * (sumSquares / Double(max(frame - skip, 1))).squareRoot(),
                              maxErrorPercent: 100 * worst, onsetErrorMs: onset.rounded() / 1e6)
    }
}
