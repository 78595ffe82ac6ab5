// The render loop's fast ERM step (`Shaper.ermStep`: a guessed drive checked against the exact one) against
// `Shaper.drive`, one frame from many random motor states: same raw value, same amplitude after, to the bit.
// Without the check about 1 state in 1000 ends an ulp off (the guessed quotient q x (1 / steps)).
// SPDX-License-Identifier: Apache-2.0

@testable import Breath
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ShaperStepTests {
    static let motors: [MotorProfile] = [.referenceERM, .erm(ERMModel(riseTau: 0.100, fallTau: 0.100, startThreshold: 0.18))]

    /// One frame both ways from amplitude `a`; nil when they agree, else a description.
    func compare(_ profile: MotorProfile, _ resolution: DutyResolution, rate: Int, a: Double, now: Double, next: Double) -> String? {
        var reference = Shaper(profile: profile, frameRate: rate, allowReverse: resolution == .i16)
        reference.erm!.amplitude = a
        let fast = reference
        var raw: UInt16 = 0
        _ = reference.drive(now: now, next: next) { d in
            let q = resolution.quantize(d)
            raw = q.raw
            return q.drive
        }
        let quantizer = Quantizer(resolution)
        var motor = fast.erm!
        var corrections = 0
        let fastRaw = fast.ermStep(&motor, now: now, next: next, quantizer, ERMGuessGains(fast, quantizer), corrections: &corrections)
        if fastRaw == raw && motor.amplitude.bitPattern == reference.erm!.amplitude.bitPattern { return nil }
        return "\(resolution) a \(a) now \(now) next \(next): raw \(fastRaw) vs \(raw), amplitude \(motor.amplitude) vs \(reference.erm!.amplitude)"
    }

    @Test func randomStates() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix(seed: seed)
        var bad: [String] = []
        for _ in 0..<300_000 {
            let profile = Self.motors.randomElement(using: &rng)!
            let resolution = DutyResolution.allCases.randomElement(using: &rng)!
            let a = Bool.random(using: &rng) ? Double.random(in: 0...1, using: &rng) : Double.random(in: 0...0.1, using: &rng)
            let next = Int.random(in: 0..<8, using: &rng) == 0 ? a : Double.random(in: 0...1, using: &rng)
            let now = Double.random(in: 0...1, using: &rng)
            if let b = compare(profile, resolution, rate: [50, 250, 1000].randomElement(using: &rng)!, a: a, now: now, next: next) { bad.append(b) }
        }
        #expect(bad.isEmpty, "\(bad.count) differ, e.g. \(bad.prefix(3)) (seed \(seed))")
    }
}
