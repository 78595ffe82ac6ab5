// The figures of a vibration measurement: onset, peak, stop and brake times per drive step, the
// drive-to-vibration curve, an LRA's resonance from a sweep.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A carrier sweep's segment as the bench played it: board ticks [startTick, endTick) at `carrierHz`.
public struct SweepSegment: Sendable, Equatable, Codable {
    public var startTick: UInt64
    public var endTick: UInt64
    public var carrierHz: Double

    public init(startTick: UInt64, endTick: UInt64, carrierHz: Double) {
        self.startTick = startTick
        self.endTick = endTick
        self.carrierHz = carrierHz
    }

    /// The sweep parts of a stimulus as a board clocked at `clockHz` played them from tick 0.
    public static func of(_ stimulus: Stimulus, clockHz: Double) -> [SweepSegment] {
        stimulus.parts.filter { $0.kind == .sweep }.map { p in
            let tick = { (f: Int) in UInt64((Double(f) / Double(stimulus.frameRate) * clockHz).rounded()) }
            return SweepSegment(startTick: tick(p.startFrame), endTick: tick(p.startFrame + p.onFrames), carrierHz: p.carrierHz ?? 0)
        }
    }
}

/// Reads a `VibrationRecording`: every drive change held at least `minimumHold` becomes a `StepFigures`
/// (onset to 10 % and 90 % of the way to the new steady amplitude, steady and peak g, stop time to 10 % after
/// the drive goes off, brake time to 10 % after a reverse kick), every positive level held gives a point of
/// the drive-to-vibration curve, and sweep segments give an LRA's resonance. Amplitudes are the
/// `VibrationEnvelope`'s; each figure says how many samples it rests on.
///
///     let report = VibrationAnalysis.analyse(recording, kind: .erm)
///     print(report.text())
public enum VibrationAnalysis {
    /// Shorter holds (a ramp's, a breath's frames) are not steps.
    public static let minimumHold = 0.06

    public static func analyse(_ recording: VibrationRecording, kind: MotorFile.Kind, carrierHz: Double? = nil,
                               sweep: [SweepSegment] = [], name: String = "") -> VibrationReport {
        let window = VibrationEnvelope.window(kind: kind, carrierHz: carrierHz)
        let env = VibrationEnvelope(recording, linear: kind == .lra, windowSeconds: window)
        let end = env.times.last ?? 0
        var steps: [StepFigures] = []
        var curve: [CurvePoint] = []
        let drive = recording.drive
        for (i, d) in drive.enumerated() {
            let t0 = env.time(ofTick: d.tick)
            let t1 = i + 1 < drive.count ? env.time(ofTick: drive[i + 1].tick) : end
            let from = i > 0 ? drive[i - 1].level : 0
            let inSweep = sweep.contains { d.tick >= $0.startTick && d.tick < $0.endTick }
            if d.level < 0 {
                // A kick of any length: brake time through the kick and the off after it. A kick's later frames
                // (a shaped breath brakes over several, each at another level) are the same kick.
                if from < 0 { continue }
                let before = env.mean(from: t0 - 0.02, to: t0)
                let limit = i + 2 < drive.count ? env.time(ofTick: drive[i + 2].tick) : end
                let (ms, n) = fallTime(env, from: t0, to: limit, reference: before.value)
                steps.append(StepFigures(kind: .brake, time: t0, from: from, to: d.level, brakeMs: ms, samples: n + before.samples))
                continue
            }
            guard t1 - t0 >= minimumHold else { continue }
            if d.level == 0 {
                guard from > 0 else { continue }
                let before = env.mean(from: t0 - 0.02, to: t0)
                let (ms, n) = fallTime(env, from: t0, to: t1, reference: before.value)
                steps.append(StepFigures(kind: .stop, time: t0, from: from, to: 0, stopMs: ms, samples: n + before.samples))
                continue
            }
            let steady = env.mean(from: t1 - (t1 - t0) / 4, to: t1)
            let startLevel = env.mean(from: t0 - 0.01, to: t0).value
            let a = env.index(at: t0), b = env.index(at: t1)
            let peak = b > a ? env.values[a..<b].max()! : 0
            var onset10: Double?, onset90: Double?
            let span = steady.value - startLevel
            if abs(span) > 1e-9 {
                for j in a..<b {
                    let f = (env.values[j] - startLevel) / span
                    if onset10 == nil && f >= 0.1 { onset10 = (env.times[j] - t0) * 1000 }
                    if f >= 0.9 { onset90 = (env.times[j] - t0) * 1000; break }
                }
            }
            steps.append(StepFigures(kind: from <= 0 ? .start : .change, time: t0, from: from, to: d.level, onset10Ms: onset10,
                                     onset90Ms: onset90, steadyG: steady.value, peakG: peak, samples: b - a))
            if !inSweep { curve.append(CurvePoint(level: d.level, steadyG: steady.value, samples: steady.samples)) }
        }
        curve.sort { $0.level < $1.level }
        let rate = env.times.count > 1 ? Double(env.times.count - 1) / end : 0
        return VibrationReport(motor: name.isEmpty ? kind.rawValue : name, samples: recording.samples.count, sampleRateHz: rate,
                               lostSamples: recording.lostSamples, windowMs: window * 1000, noiseG: env.noisePower.squareRoot(),
                               quietSamples: env.quietSamples, steps: steps, curve: curve,
                               resonance: sweep.isEmpty ? nil : resonance(env, sweep))
    }

    /// Time from `from` until the amplitude first falls to 10 % of `reference`, ms (nil: not before `to`).
    static func fallTime(_ env: VibrationEnvelope, from: Double, to: Double, reference: Double) -> (Double?, Int) {
        let a = env.index(at: from), b = env.index(at: to)
        for j in a..<max(a, b) where env.values[j] <= 0.1 * reference {
            return ((env.times[j] - from) * 1000, j - a + 1)
        }
        return (nil, b - a)
    }

    /// Steady amplitude of each segment (its second half), the peak by a parabola through the top three, the
    /// quality from the half-power points (interpolated) where both lie inside the sweep.
    static func resonance(_ env: VibrationEnvelope, _ sweep: [SweepSegment]) -> ResonanceFigures? {
        let points = sweep.sorted { $0.carrierHz < $1.carrierHz }.map { s -> SweepPoint in
            let t0 = env.time(ofTick: s.startTick), t1 = env.time(ofTick: s.endTick)
            let m = env.mean(from: (t0 + t1) / 2, to: t1)
            return SweepPoint(carrierHz: s.carrierHz, steadyG: m.value, samples: m.samples)
        }
        guard let top = points.indices.max(by: { points[$0].steadyG < points[$1].steadyG }) else { return nil }
        var f0 = points[top].carrierHz, peak = points[top].steadyG
        if top > 0 && top + 1 < points.count {
            let (x0, x1, x2) = (points[top - 1].carrierHz, points[top].carrierHz, points[top + 1].carrierHz)
            let (y0, y1, y2) = (points[top - 1].steadyG, points[top].steadyG, points[top + 1].steadyG)
            let denom = (x0 - x1) * (x0 - x2) * (x1 - x2)
            let a = (x2 * (y1 - y0) + x1 * (y0 - y2) + x0 * (y2 - y1)) / denom
            let b = (x2 * x2 * (y0 - y1) + x1 * x1 * (y2 - y0) + x0 * x0 * (y1 - y2)) / denom
            if a < 0 {
                f0 = min(max(-b / (2 * a), x0), x2)
                let c = y1 - a * x1 * x1 - b * x1
                peak = a * f0 * f0 + b * f0 + c
            }
        }
        let half = peak / 2.0.squareRoot()
        func crossing(_ range: [Int]) -> Double? {
            for (j, k) in zip(range, range.dropFirst()) where points[k].steadyG < half && points[j].steadyG >= half {
                let (pj, pk) = (points[j], points[k])
                return pj.carrierHz + (pk.carrierHz - pj.carrierHz) * (pj.steadyG - half) / (pj.steadyG - pk.steadyG)
            }
            return nil
        }
        var quality: Double?
        if let lo = crossing(Array((0...top).reversed())), let hi = crossing(Array(top..<points.count)), hi > lo {
            quality = f0 / (hi - lo)
        }
        return ResonanceFigures(resonanceHz: f0, peakG: peak, quality: quality, points: points,
                                samples: points.reduce(0) { $0 + $1.samples })
    }
}
