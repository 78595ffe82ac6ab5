// Easing shapes and Core Haptics parameter semantics: multiply, add, clamp, relative times, who wins.
// SPDX-License-Identifier: Apache-2.0

import Breath
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct EasingAndCurveTests {
    @Test(arguments: Easing.allCases)
    func easingsRunFromZeroToOneMonotonically(easing: Easing) {
        #expect(easing.apply(0) == 0)
        #expect(abs(easing.apply(1) - 1) < 1e-12)
        #expect(abs(easing.apply(0.5) - 0.5) < 1e-12)  // all four are symmetric about the middle
        var last = -1.0
        for i in 0...100 {
            let v = easing.apply(Double(i) / 100)
            #expect(v >= last)
            last = v
        }
        #expect(easing.apply(-1) == 0 && easing.apply(2) == easing.apply(1))  // clamped
    }

    @Test func easingValuesAtAQuarter() {
        #expect(Easing.linear.apply(0.25) == 0.25)
        #expect(abs(Easing.sineInOut.apply(0.25) - 0.146_446_609) < 1e-9)   // 0.5 - 0.5 cos(pi/4)
        #expect(abs(Easing.smoothstep.apply(0.25) - 0.156_25) < 1e-12)      // 3x^2 - 2x^3
        #expect(abs(Easing.cubicInOut.apply(0.25) - 0.0625) < 1e-12)        // 4x^3
    }

    @Test func curveSegmentsUseTheirOwnEasingAndTimesAreRelativeToTheCurve() {
        let c = ParameterCurve(parameter: .intensityControl, time: 10, points: [
            ControlPoint(time: 0, value: 0, easing: .smoothstep), ControlPoint(time: 2, value: 1, easing: .linear),
            ControlPoint(time: 4, value: 0),
        ])
        #expect(c.value(at: 10) == 0)
        #expect(abs(c.value(at: 10.5) - 0.156_25) < 1e-12)  // smoothstep at a quarter of 0...2 s
        #expect(c.value(at: 12) == 1)
        #expect(abs(c.value(at: 13) - 0.5) < 1e-12)         // linear 1 -> 0
        #expect(c.value(at: 20) == 0)                         // holds its last value
    }

    @Test func intensityControlMultipliesAndSharpnessControlAdds() {
        let p = HapticPattern(events: [
            .continuous(at: 0, duration: 10, intensity: 0.8, sharpness: 0.3),
            .transient(at: 5, intensity: 0.9, sharpness: 0.7),
        ], curves: [
            ParameterCurve(parameter: .intensityControl, time: 0, points: [ControlPoint(time: 0, value: 0.5)]),
            ParameterCurve(parameter: .sharpnessControl, time: 0, points: [ControlPoint(time: 0, value: 0.6)]),
        ])
        #expect(abs(p.continuousIntensity(at: 1) - 0.4) < 1e-12)
        #expect(p.taps == [Tap(time: 5, intensity: 0.45, sharpness: 1.0)])  // 0.7 + 0.6 clamps to 1
    }

    @Test func controlValuesClampToTheirRanges() {
        let c = ParameterCurve(parameter: .intensityControl, time: 0, points: [ControlPoint(time: 0, value: 3)])
        #expect(c.value(at: 1) == 1)
        let s = ParameterCurve(parameter: .sharpnessControl, time: 0, points: [ControlPoint(time: 0, value: -4)])
        #expect(s.value(at: 1) == -1)
        #expect(HapticEvent.continuous(at: 0, duration: 1, intensity: 2).intensity == 1)
    }

    @Test func theLatestStartedCurveWinsAndNeutralBeforeAny() {
        let p = HapticPattern(events: [.continuous(at: 0, duration: 10, intensity: 1)], curves: [
            ParameterCurve(parameter: .intensityControl, time: 2, points: [ControlPoint(time: 0, value: 0.2)]),
            ParameterCurve(parameter: .intensityControl, time: 5, points: [ControlPoint(time: 0, value: 0.7)]),
        ])
        #expect(p.continuousIntensity(at: 1) == 1)      // no curve yet: neutral 1
        #expect(p.continuousIntensity(at: 3) == 0.2)
        #expect(p.continuousIntensity(at: 6) == 0.7)
        #expect(p.continuousIntensity(at: 10) == 0)     // the event ended
    }

    @Test func attackAndReleaseShapeAContinuousEvent() {
        let p = HapticPattern(events: [HapticEvent(kind: .continuous(duration: 4), time: 0, intensity: 1, attack: 1, release: 2)])
        #expect(abs(p.continuousIntensity(at: 0.5) - 0.5) < 1e-12)
        #expect(p.continuousIntensity(at: 1.5) == 1)
        #expect(abs(p.continuousIntensity(at: 3) - 0.5) < 1e-12)
    }

    @Test func aCurveActsFromItsFirstPointAndTheEarlierCurveHoldsBeforeIt() {
        let p = HapticPattern(events: [.continuous(at: 0, duration: 10, intensity: 1)], curves: [
            ParameterCurve(parameter: .intensityControl, time: 0, points: [ControlPoint(time: 0, value: 0.2), ControlPoint(time: 4, value: 0.6)]),
            ParameterCurve(parameter: .intensityControl, time: 1, points: [ControlPoint(time: 5, value: 0.9)]),
        ])
        #expect(abs(p.continuousIntensity(at: 2) - 0.4) < 1e-12)   // the first curve, still rising
        #expect(abs(p.continuousIntensity(at: 5.9) - 0.6) < 1e-12) // the first curve's last value
        #expect(p.continuousIntensity(at: 6) == 0.9)                // the second one, from its point at 1 + 5 s
        var cursor = Envelope.Cursor(Envelope(p))
        #expect(abs(cursor.intensity(at: 2) - 0.4) < 1e-12 && cursor.intensity(at: 6) == 0.9)
    }

    /// The compiled envelope (sweep) against the by-instant reference: random overlapping events with
    /// ramps, curves of both parameters starting anywhere, taps. The seed is printed with any failure.
    @Test func compiledEnvelopeAgreesWithTheReferenceOnRandomPatterns() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix(seed: seed)
        for round in 0..<60 {
            var events: [HapticEvent] = []
            for _ in 0..<Int.random(in: 1...(round < 30 ? 5 : 40), using: &rng) {
                events.append(HapticEvent(kind: .continuous(duration: .random(in: 0.05...3, using: &rng)), time: .random(in: 0...5, using: &rng),
                                          intensity: .random(in: 0...1, using: &rng), attack: Bool.random(using: &rng) ? .random(in: 0...2, using: &rng) : 0,
                                          release: Bool.random(using: &rng) ? .random(in: 0...2, using: &rng) : 0))
            }
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                events.append(.transient(at: .random(in: 0...6, using: &rng), intensity: .random(in: 0...1, using: &rng), sharpness: .random(in: 0...1, using: &rng)))
            }
            var curves: [ParameterCurve] = []
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let points = (0..<Int.random(in: 1...20, using: &rng)).map { _ in
                    ControlPoint(time: .random(in: 0...3, using: &rng), value: .random(in: -1.2...1.2, using: &rng), easing: Easing.allCases.randomElement(using: &rng)!)
                }
                curves.append(ParameterCurve(parameter: Bool.random(using: &rng) ? .intensityControl : .sharpnessControl,
                                             time: .random(in: 0...5, using: &rng), points: points))
            }
            let p = HapticPattern(events: events, curves: curves)
            let envelope = Envelope(p)
            var cursor = Envelope.Cursor(envelope)
            for i in 0..<900 {
                let t = Double(i) / 100
                let (got, want) = (cursor.intensity(at: t), p.continuousIntensity(at: t))
                if abs(got - want) > 1e-9 {
                    Issue.record("seed \(seed), round \(round), t = \(t): \(got) vs \(want)")
                    break
                }
            }
            let taps = zip(envelope.taps, p.taps)
            #expect(envelope.taps.count == p.taps.count && taps.allSatisfy { abs($0.intensity - $1.intensity) < 1e-12 && abs($0.sharpness - $1.sharpness) < 1e-12 },
                    "seed \(seed), round \(round)")
        }
    }
}
