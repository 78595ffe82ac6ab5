// Issue 15's goal: on a motor 25 % slower with an 18 % start threshold, the breath shaped with a
// calibrated profile starts within 20 ms and follows within 3 % RMS (shaped for the reference model it
// starts ~480 ms late). The plant is the oracle: the profile only knows what the staircases found.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Calibration
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10)))
struct MismatchTests {
    @Test func calibratedProfileMeetsTheGoalOnTheSlowerMotor() {
        let plan = BreathPlan(pattern: BreathPattern.presets[0])
        let plant = MotorProfile.erm(ERMModelFixture.weaker)
        let before = Fidelity.measure(plan: plan, resolution: .i16, shapeFor: .referenceERM, plant: plant, compensate: true)
        print("mismatch, reference model: onset \(before.onsetErrorMs) ms, RMS \(before.rmsPercent) %")
        for seed: UInt64 in 1...20 {
            var rig = SimulatedRig(motor: ERMModelFixture.weaker, person: SimulatedRig.typicalPerson(seed: seed))
            let profile = rig.profile(board: "0", boardName: "sim", spot: "wrist")
            let after = Fidelity.measure(plan: plan, resolution: .i16, shapeFor: profile.motorProfile, plant: plant, compensate: true)
            let warm = Fidelity.measure(plan: plan, resolution: .i16, shapeFor: profile.motorProfile, plant: plant, compensate: true,
                                        warmup: 0.3, warmupMargin: CalibrationProfile.warmupMargin)
            if seed == 1 {
                print("mismatch, calibrated profile (person seed 1: start \(profile.startThreshold), stop \(profile.stopThreshold)): onset \(after.onsetErrorMs) ms, RMS \(after.rmsPercent) %; with warm-up onset \(warm.onsetErrorMs) ms, RMS \(warm.rmsPercent) %")
            }
            // Early counts as much as late.
            #expect(abs(after.onsetErrorMs) <= 20, "seed \(seed): onset \(after.onsetErrorMs) ms, profile \(profile)")
            #expect(after.rmsPercent <= 3, "seed \(seed): RMS \(after.rmsPercent) %, profile \(profile)")
            #expect(abs(warm.onsetErrorMs) <= 20 && warm.rmsPercent <= 3, "seed \(seed) with warm-up: \(warm)")
        }
        #expect(before.onsetErrorMs > 100)  // the case is a real mismatch
    }

    /// The same against 100 people drawn at random (noisier, with lapses): how often the goal is met.
    @Test func acrossRandomPeople() {
        let plan = BreathPlan(pattern: BreathPattern.presets[0])
        let plant = MotorProfile.erm(ERMModelFixture.weaker)
        var met = 0, onsets: [Double] = [], misses: [UInt64] = []
        for seed: UInt64 in 1...100 {
            var rig = SimulatedRig(motor: ERMModelFixture.weaker, person: .random(seed: seed))
            let profile = rig.profile(board: "0", boardName: "sim", spot: "wrist")
            let r = Fidelity.measure(plan: plan, resolution: .i16, shapeFor: profile.motorProfile, plant: plant, compensate: true)
            onsets.append(r.onsetErrorMs)
            if abs(r.onsetErrorMs) <= 20 && r.rmsPercent <= 3 { met += 1 } else { misses.append(seed) }
        }
        onsets.sort()
        print("mismatch across 100 random people: goal met \(met)/100; onset min \(onsets.first!) median \(onsets[50]) max \(onsets.last!) ms; missed seeds \(misses)")
        #expect(met >= 95, "goal met for \(met) of 100; missed seeds \(misses)")
    }
}
