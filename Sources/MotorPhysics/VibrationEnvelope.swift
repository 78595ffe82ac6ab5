// The vibration's amplitude over time from accelerometer samples: offset removed, noise power subtracted,
// RMS over a sliding window centred on each sample, scaled to the peak of the vibration.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The amplitude (g, peak) of the vibration at every sample of a recording. The sensor's offset (gravity,
/// bias) and noise power come from the samples before the first drive (at least 32 of them, else none):
/// the offset is subtracted per axis, the noise power from the windowed mean square. The window is centred
/// (an offline measurement: no delay) and `windowSeconds` long: a few ms for an ERM, whose vector turns at
/// constant length (peak = RMS of the magnitude), whole carrier periods for an LRA shaking along one axis
/// (peak = √2 × RMS). With `gate` k > 0, a window whose power is within k standard deviations of the
/// noise reads as 0: what the sensor cannot tell from its noise (a felt amplitude is a square root of
/// the acceleration, which blows noise up near zero).
public struct VibrationEnvelope: Sendable {
    /// Seconds since the first sample, and the amplitude there, g.
    public let times: [Double]
    public let values: [Double]
    /// Samples the offset and noise were taken from, and the noise's power (g², all axes).
    public let quietSamples: Int
    public let noisePower: Double
    /// Standard deviation of one sample's power in the quiet samples, g².
    public let noisePowerStd: Double
    /// Each sample's power (g², all axes, offset removed) and their running sum.
    let power: [Double]
    let prefix: [Double]
    public let windowSamples: Int
    /// Board tick of the first sample, and ticks per second (to place drive points on `times`).
    public let startTick: UInt64
    public let clockHz: Double

    public init(_ recording: VibrationRecording, linear: Bool, windowSeconds: Double, gate: Double = 0) {
        let s = recording.samples
        clockHz = recording.clockHz
        startTick = s.first?.tick ?? 0
        let firstDrive = recording.drive.first(where: { $0.level != 0 })?.tick ?? UInt64.max
        let quiet = s.prefix { $0.tick < firstDrive }.count >= 32 ? s.prefix { $0.tick < firstDrive }.count : 0
        var offset = SIMD3<Double>.zero
        for p in s.prefix(quiet) { offset += p.g }
        if quiet > 0 { offset /= Double(quiet) }
        let power = s.map { p -> Double in let d = p.g - offset; return (d * d).sum() }
        var noise = 0.0
        for p in power.prefix(quiet) { noise += p }
        if quiet > 0 { noise /= Double(quiet) }
        var spread = 0.0
        for p in power.prefix(quiet) { spread += (p - noise) * (p - noise) }
        noisePowerStd = quiet > 1 ? (spread / Double(quiet - 1)).squareRoot() : 0
        quietSamples = quiet
        noisePower = noise
        self.power = power
        let rate = s.count > 1 ? Double(s.count - 1) / (Double(s.last!.tick - s.first!.tick) / clockHz) : 1
        let w = max(1, Int((windowSeconds * rate).rounded()))
        windowSamples = w
        var prefix = [Double](repeating: 0, count: power.count + 1)
        for (i, p) in power.enumerated() { prefix[i + 1] = prefix[i] + p }
        self.prefix = prefix
        let factor = linear ? 2.0 : 1.0
        let floor = gate * noisePowerStd / Double(w).squareRoot()
        var values = [Double](repeating: 0, count: power.count)
        for i in 0..<power.count {
            let lo = max(0, i - w / 2), hi = min(power.count, lo + w)
            let mean = (prefix[hi] - prefix[lo]) / Double(hi - lo)
            values[i] = mean - noise <= floor ? 0 : ((mean - noise) * factor).squareRoot()
        }
        self.values = values
        let hz = recording.clockHz, first = s.first?.tick ?? 0
        times = s.map { Double($0.tick - first) / hz }
    }

    /// Seconds since the first sample of board tick `tick`.
    public func time(ofTick tick: UInt64) -> Double { (Double(tick) - Double(startTick)) / clockHz }

    /// Index of the first sample at or after `t`.
    public func index(at t: Double) -> Int {
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Mean amplitude over [from, to) and the samples it rests on.
    public func mean(from: Double, to: Double) -> (value: Double, samples: Int) {
        let a = index(at: from), b = index(at: to)
        guard b > a else { return (0, 0) }
        return (values[a..<b].reduce(0, +) / Double(b - a), b - a)
    }

    /// Mean power over [from, to) less the noise's, its standard deviation from the noise alone, and the
    /// samples: an amplitude² estimate that stays unbiased however small the signal.
    public func meanPower(from: Double, to: Double) -> (value: Double, noiseStd: Double, samples: Int) {
        let a = index(at: from), b = index(at: to)
        guard b > a else { return (0, .infinity, 0) }
        return ((prefix[b] - prefix[a]) / Double(b - a) - noisePower, noisePowerStd / Double(b - a).squareRoot(), b - a)
    }

    /// The envelope's window for a motor: 5 ms for an ERM, two carrier periods for an LRA.
    public static func window(kind: MotorFile.Kind, carrierHz: Double?) -> Double {
        kind == .erm ? 0.005 : 2 / (carrierHz ?? 175)
    }
}
