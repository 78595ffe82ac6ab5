// A simulated person answering calibration questions: hidden thresholds (on the fingertips and on the
// body spot), a hidden comfortable maximum, psychometric noise, lapses and false alarms, all seeded.
// SPDX-License-Identifier: Apache-2.0

import Breath

/// Where the person feels a stimulus.
public enum Touch: String, Sendable, Codable {
    /// The motor held between finger and thumb: very sensitive, so the motor's own thresholds show.
    case fingertips
    /// The motor on the body spot being calibrated (wrist, palm, abdomen...).
    case spot
}

/// A simulated person answering calibration questions, for tests and accuracy figures: hidden thresholds
/// on the fingertips and on the body spot, a hidden comfortable maximum, psychometric noise, lapses and
/// false alarms, all seeded so the same seed gives the same answers.
///
///     var person = SimulatedPerson.random(seed: 3)
///     let felt = person.answer(amplitude: 0.1, touch: .spot, comfort: false)
public struct SimulatedPerson: Sendable {
    /// Felt amplitude at which a vibration is felt half the time, on the fingertips and on the spot.
    public var fingertipThreshold: Double
    public var spotThreshold: Double
    /// Felt amplitude judged "too strong" half the time.
    public var comfortMax: Double
    /// Psychometric spread, relative to the threshold (a Weber-like noise: 0.1 = 10 %).
    public var relativeNoise: Double
    /// Chance of answering "no" to anything (inattention) and "yes" to anything (a false alarm).
    public var lapseRate: Double
    public var falseAlarmRate: Double
    private var random: SplitMix64

    /// A person with these hidden thresholds and noise; `seed` fixes their answers.
    public init(fingertipThreshold: Double, spotThreshold: Double, comfortMax: Double, relativeNoise: Double = 0.1,
                lapseRate: Double = 0.02, falseAlarmRate: Double = 0.02, seed: UInt64) {
        self.fingertipThreshold = fingertipThreshold
        self.spotThreshold = spotThreshold
        self.comfortMax = comfortMax
        self.relativeNoise = relativeNoise
        self.lapseRate = lapseRate
        self.falseAlarmRate = falseAlarmRate
        random = seededRandom(seed)
    }

    /// A person drawn at random from a plausible range (the seed picks the person and their answers).
    public static func random(seed: UInt64) -> SimulatedPerson {
        var r = seededRandom(seed ^ 0x5045_5253_4F4E)  // "PERSON"
        let spot = r.uniform(0.04...0.14)
        return SimulatedPerson(fingertipThreshold: spot * r.uniform(0.15...0.35), spotThreshold: spot,
                               comfortMax: r.uniform(0.5...0.95), relativeNoise: r.uniform(0.05...0.2),
                               lapseRate: r.uniform(0...0.04), falseAlarmRate: r.uniform(0...0.04), seed: seed)
    }

    /// Probability of "yes, I feel it" for a felt amplitude `a` on `touch`.
    public func feelProbability(_ a: Double, on touch: Touch) -> Double {
        let t = touch == .fingertips ? fingertipThreshold : spotThreshold
        return psychometric(a, threshold: t)
    }

    /// Probability of "too strong" for a felt amplitude `a`.
    public func tooStrongProbability(_ a: Double) -> Double { psychometric(a, threshold: comfortMax) }

    func psychometric(_ a: Double, threshold t: Double) -> Double {
        let sigma = max(relativeNoise * t, 1e-6)
        return falseAlarmRate + (1 - falseAlarmRate - lapseRate) * normalCDF((a - t) / sigma)
    }

    /// Answers "do you feel it?" (or "too strong?" with `comfort`) for a felt amplitude `a`.
    public mutating func answer(amplitude a: Double, touch: Touch, comfort: Bool) -> Bool {
        let p = comfort ? tooStrongProbability(a) : feelProbability(a, on: touch)
        return random.unit() < p
    }
}
