// Fitting the shaping model (ERM: rise, fall, brake, start and stop thresholds; LRA: resonance, quality,
// tau) to a recording of the identification stimulus.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation

/// Fits the renderer's shaping model to a measured motor: a recording of `Stimulus.identification` (at most
/// 30 s of motor time). Felt amplitude is the `FeltScale` of the envelope, normalised by full drive's steady
/// amplitude. ERM: the stop threshold (kinetic offset) from the staircase's line; rise tau from the steps
/// from rest (normalised: 1 − e^(−t/τ)); fall tau from their stops, in the model's own units (the drive-
/// equivalent amplitude u = floor + (1 − floor)·felt, which decays as e^(−t/τ)); brake tau by playing the
/// kick on the model; the start threshold as the midpoint below the lowest short step that set the rotor
/// turning (1 % steps). LRA: resonance and quality from the sweep, tau from the ring-downs. Every fit is a
/// grid and golden-section search (`ScalarFit`) on the squared error: deterministic.
///
///     let stimulus = Stimulus.identification(for: .erm)
///     let found = try MotorIdentification.identify(bench.record(stimulus), stimulus: stimulus, kind: .erm)
///     let profile = found.profile          // MotorProfile for the renderer; found.lagSeconds for calibration
public enum MotorIdentification {
    public static func identify(_ recording: VibrationRecording, stimulus: Stimulus, kind: MotorFile.Kind,
                                carrierHz: Double = 175) throws(MotorFileError) -> IdentifiedMotor {
        guard let frame0 = recording.drive.first?.tick, !recording.samples.isEmpty else {
            throw MotorFileError("identification: the recording has no drive or no samples")
        }
        let env = VibrationEnvelope(recording, linear: kind == .lra,
                                    windowSeconds: VibrationEnvelope.window(kind: kind, carrierHz: carrierHz))
        let at = { (frame: Int) in env.time(ofTick: frame0) + Double(frame) / Double(stimulus.frameRate) }
        var fit = Fitter(env: env, stimulus: stimulus, at: at)
        let motorSeconds = stimulus.seconds
        switch kind {
        case .erm: return try fit.erm(motorSeconds: motorSeconds)
        case .lra: return try fit.lra(motorSeconds: motorSeconds, carrierHz: carrierHz, frame0: frame0, clockHz: recording.clockHz)
        }
    }
}

/// The fits, sharing the envelope and the stimulus's part times.
struct Fitter {
    let env: VibrationEnvelope
    let stimulus: Stimulus
    let at: (Int) -> Double
    var samples: [String: Int] = [:]

    func parts(_ kind: StimulusPart.Kind) -> [StimulusPart] { stimulus.parts.filter { $0.kind == kind } }
    func onEnd(_ p: StimulusPart) -> Double { at(p.startFrame + p.onFrames) }

    /// Mean amplitude over the last quarter of a part's on-time.
    func steady(_ p: StimulusPart, last fraction: Double = 0.25) -> (value: Double, samples: Int) {
        let t0 = at(p.startFrame), t1 = onEnd(p)
        return env.mean(from: t1 - (t1 - t0) * fraction, to: t1)
    }

    /// Sample indices in [from, to).
    func range(_ from: Double, _ to: Double) -> Range<Int> { env.index(at: from)..<max(env.index(at: from), env.index(at: to)) }

    mutating func erm(motorSeconds: Double) throws(MotorFileError) -> IdentifiedMotor {
        guard let full = (parts(.step) + parts(.stair)).first(where: { $0.level == 1 }) else {
            throw MotorFileError("identification: the stimulus has no full-drive step")
        }
        let fullG = steady(full).value
        guard fullG > 0 else { throw MotorFileError("identification: no vibration at full drive") }
        let scale = FeltScale(kind: .erm, fullScaleG: fullG)
        // Kinetic offset: felt = (d − floor) / (1 − floor) along the staircase.
        var xs: [Double] = [], ys: [Double] = [], n = 0
        for p in parts(.stair) {
            let s = steady(p, last: 0.3)
            xs.append(p.level); ys.append(scale.felt(s.value)); n += s.samples
        }
        let (slope, intercept) = line(xs, ys)
        let floor = slope > 0 ? min(max(-intercept / slope, 0), 0.9) : 0
        samples["curve"] = n
        // Rise: steps from rest, normalised by their own steady felt amplitude.
        var rise: [(t: Double, y: Double)] = []
        for p in parts(.step) {
            let t0 = at(p.startFrame), ss = scale.felt(steady(p).value)
            guard ss > 0.1 else { continue }
            for j in range(t0, onEnd(p)) { rise.append((env.times[j] - t0, scale.felt(env.values[j]) / ss)) }
        }
        samples["rise"] = rise.count
        let riseTau = ScalarFit.minimise(0.003, 1) { tau in rise.reduce(0) { let e = $1.y - (1 - exp(-$1.t / tau)); return $0 + e * e } }
        // Fall: after each step, u = floor + (1 − floor)·felt decays from the level as e^(−t/τ) until the rotor stops.
        var fall: [(t: Double, u: Double, u0: Double)] = []
        for p in parts(.step) {
            let t0 = onEnd(p), u0 = floor + (1 - floor) * scale.felt(steady(p).value)
            for j in range(t0, at(p.startFrame + p.frameCount)) {
                let f = scale.felt(env.values[j])
                if f < 0.05 { break }
                fall.append((env.times[j] - t0, floor + (1 - floor) * f, u0))
            }
        }
        samples["fall"] = fall.count
        let fallTau = ScalarFit.minimise(0.003, 1) { tau in fall.reduce(0) { let e = $1.u - $1.u0 * exp(-$1.t / tau); return $0 + e * e } }
        // Start: the lowest short step above which every step set the rotor turning: its mean power (noise
        // removed) over the last half above half what a turning rotor gives there and above 4σ of the noise.
        var lowestStarted: Double?, highestStill: Double?, startSamples = 0
        for p in parts(.start).sorted(by: { $0.level > $1.level }) {
            let t1 = onEnd(p), t0 = at(p.startFrame)
            let m = env.meanPower(from: (t0 + t1) / 2, to: t1)
            startSamples += m.samples
            let expected = fullG * pow(max(0, (p.level - floor) / (1 - floor)), 2)
            if m.value > max(expected * expected / 4, 4 * m.noiseStd) && highestStill == nil {
                lowestStarted = p.level
            } else if highestStill == nil {
                highestStill = p.level
            }
        }
        samples["start"] = startSamples
        var start: Double?
        if let l = lowestStarted { start = highestStill.map { ($0 + l) / 2 } ?? l }
        // Brake: chosen for what the renderer does with it on the rotor as identified (`BrakeFit`).
        let brakeTau = BrakeFit.brakeTau(riseTau: riseTau, fallTau: fallTau, floor: floor, start: start ?? 0.15)
        return IdentifiedMotor(kind: .erm, riseTau: riseTau, fallTau: fallTau, brakeTau: brakeTau, startThreshold: start,
                               stopThreshold: floor, fullScaleG: fullG, motorSeconds: motorSeconds, samples: samples)
    }

    mutating func lra(motorSeconds: Double, carrierHz: Double, frame0: UInt64, clockHz: Double) throws(MotorFileError) -> IdentifiedMotor {
        let rate = Double(stimulus.frameRate)
        let sweep = parts(.sweep).map { p in
            let tick = { (f: Int) in frame0 + UInt64((Double(f) / rate * clockHz).rounded()) }
            return SweepSegment(startTick: tick(p.startFrame), endTick: tick(p.startFrame + p.onFrames), carrierHz: p.carrierHz ?? carrierHz)
        }
        guard let res = VibrationAnalysis.resonance(env, sweep) else { throw MotorFileError("identification: the stimulus has no sweep") }
        samples["sweep"] = res.samples
        // Tau from the ring-downs: free oscillation at f0 whatever the carrier was, its envelope A·e^(−t/τ).
        // A log-linear fit per ring-down (own intercept, one slope) between 70 % and 10 % of its start.
        let sampleRate = Double(env.times.count - 1) / max(env.times.last ?? 1, 1e-9)
        let skip = Double(env.windowSamples) / 2 / sampleRate
        var sxy = 0.0, sxx = 0.0, count = 0
        for p in parts(.step) + parts(.stair) + parts(.sweep) where p.frameCount > p.onFrames {
            let t0 = onEnd(p)
            let a0 = env.mean(from: t0 - 0.01, to: t0 - 0.005).value
            guard a0 > 0 else { continue }
            var pts: [(Double, Double)] = []
            for j in range(t0 + skip, at(p.startFrame + p.frameCount)) {
                let y = env.values[j] / a0
                if y < 0.1 { break }
                if y <= 0.7 { pts.append((env.times[j] - t0, log(y))) }
            }
            guard pts.count >= 3 else { continue }
            let mt = pts.reduce(0) { $0 + $1.0 } / Double(pts.count), ml = pts.reduce(0) { $0 + $1.1 } / Double(pts.count)
            for (t, l) in pts { sxy += (t - mt) * (l - ml); sxx += (t - mt) * (t - mt) }
            count += pts.count
        }
        samples["tau"] = count
        guard sxx > 0, sxy < 0 else { throw MotorFileError("identification: no ring-down to measure tau from") }
        let tau = -sxx / sxy
        let quality = res.quality ?? Double.pi * res.resonanceHz * tau
        let model = LRAModel(tau: tau, resonanceHz: res.resonanceHz, quality: quality, carrierHz: carrierHz)
        // Felt scale: full drive at the board's carrier, divided by the model's gain there (1 at resonance).
        var full = res.peakG / 0.6
        if let step = parts(.step).first(where: { $0.level == 1 }) { full = steady(step).value / model.resonanceGain }
        return IdentifiedMotor(kind: .lra, resonanceHz: res.resonanceHz, quality: quality, tau: tau, carrierHz: carrierHz,
                               fullScaleG: full, motorSeconds: motorSeconds, samples: samples)
    }

    /// Least-squares line y = slope·x + intercept.
    func line(_ xs: [Double], _ ys: [Double]) -> (Double, Double) {
        let n = Double(xs.count)
        guard n >= 2 else { return (0, 0) }
        let mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0
        for (x, y) in zip(xs, ys) { sxy += (x - mx) * (y - my); sxx += (x - mx) * (x - mx) }
        let slope = sxx > 0 ? sxy / sxx : 0
        return (slope, my - slope * mx)
    }
}
