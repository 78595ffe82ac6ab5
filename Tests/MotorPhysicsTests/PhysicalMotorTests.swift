// The physical motors against their own equations: an ERM's steady shaking and spin, static friction, an
// LRA's resonance; and the published motor's onset against its datasheet curve.
// SPDX-License-Identifier: Apache-2.0

import Foundation
@testable import MotorPhysics
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct PhysicalMotorTests {
    @Test func ermSteadyAccelerationAndSpin() throws {
        let file = MotorFile.coinERM10mm
        let p = file.erm!
        var motor = PhysicalERM(physics: p, mountingG: file.mountingG)
        motor.advance(drive: 0.8, seconds: 1.0)
        let w = p.steadySpeed(drive: 0.8)
        #expect(abs(motor.omega / w - 1) < 0.01, "speed \(motor.omega) vs \(w) rad/s")
        let a = motor.acceleration
        let expected = p.accelerationG(omega: w, mountingG: file.mountingG)
        #expect(abs((a.x * a.x + a.y * a.y).squareRoot() / expected - 1) < 0.02, "\(a) vs \(expected) g")
        #expect(a.z == 0)
        // The vector turns at the rotor's speed: count x's sign changes over 0.2 s.
        var changes = 0, last = motor.acceleration.x
        for _ in 0..<4000 {
            motor.advance(drive: 0.8, seconds: 0.00005)
            let x = motor.acceleration.x
            if (x > 0) != (last > 0) { changes += 1 }
            last = x
        }
        let hz = Double(changes) / 2 / 0.2
        #expect(abs(hz / (w / 2 / .pi) - 1) < 0.03, "turning at \(hz) Hz, speed says \(w / 2 / .pi)")
    }

    @Test func ermStaticFrictionHoldsBelowStart() {
        let p = MotorFile.coinERM10mm.erm!
        var motor = PhysicalERM(physics: p, mountingG: 100)
        motor.advance(drive: p.startDrive * 0.95, seconds: 0.5)
        #expect(motor.omega == 0)
        motor.advance(drive: p.startDrive * 1.05, seconds: 0.5)
        #expect(motor.omega > 0)
        // Once turning it keeps turning below the start drive, down to the kinetic offset.
        motor.advance(drive: p.stopDrive * 1.5, seconds: 1.0)
        #expect(motor.omega > 0)
        motor.advance(drive: p.stopDrive * 0.5, seconds: 1.0)
        #expect(motor.omega == 0)
    }

    @Test func lraResonanceAndGain() {
        let file = MotorFile.coinLRA10mm
        let l = file.lra!
        func steady(_ carrier: Double) -> Double {
            var motor = PhysicalLRA(physics: l, mountingG: file.mountingG, carrierHz: carrier)
            motor.advance(drive: 1, seconds: 0.3)
            var peak = 0.0
            for _ in 0..<2000 {
                motor.advance(drive: 1, seconds: 0.00001)
                peak = max(peak, abs(motor.acceleration.z))
            }
            return peak
        }
        let atResonance = steady(175)
        #expect(abs(atResonance / l.peakG(mountingG: file.mountingG) - 1) < 0.03, "\(atResonance) g")
        // Off resonance, the resonator's gain 1/√(1 + Q²(f/f0 − f0/f)²) (acceleration: times f/f0).
        for f in [150.0, 200.0] {
            let r = f / 175 - 175 / f
            let gain = (f / 175) / (1 + 25 * r * r).squareRoot()
            #expect(abs(steady(f) / atResonance / gain - 1) < 0.03, "at \(f) Hz")
        }
    }

    /// Precision Microdrives 305-000 at 1.3 V: its 0.4 G peak about 180 ms after power on (PMD's step
    /// response). Measured through the accelerometer and the analysis: 90 % of the steady amplitude within
    /// 15 % of 180 ms, and the steady amplitude within 15 % of 0.4 G.
    @Test func publishedOnsetWithinFifteenPercent() throws {
        let file = try MotorFiles.load("erm-pmd-305-000")
        let seed = UInt64.random(in: 0...UInt64.max)
        var stimulus = Stimulus(frameRate: 250)
        stimulus.quiet(0.3)
        stimulus.step(1, on: 0.6, off: 0.4)
        let recording = SimulatedBench(file: file, seed: seed).record(stimulus)
        let report = VibrationAnalysis.analyse(recording, kind: .erm)
        let start = try #require(report.steps.first { $0.kind == .start })
        let onset = try #require(start.onset90Ms)
        print("PMD 305-000: 90 % at \(onset) ms (datasheet ~180 ms), 10 % at \(start.onset10Ms ?? -1) ms, steady \(start.steadyG!) g (0.4 G), seed \(seed)")
        #expect(abs(onset / 180 - 1) <= 0.15, "seed \(seed)")
        #expect(abs(start.steadyG! / 0.4 - 1) <= 0.15, "seed \(seed)")
    }
}
