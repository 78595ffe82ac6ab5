// The calibration against 100 seeded simulated people and motors: every measurement's error against the
// hidden truth, and the trials a whole calibration needs. The numbers are printed; a failure names the
// worst seed (rerun it with SimulatedRig.random(seed:)).
// SPDX-License-Identifier: Apache-2.0

import Breath
import Calibration
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10)))
struct AccuracyTests {
    /// Bounds per task: p50 and p95 absolute error (drive fraction).
    static let bounds: [CalibrationTask: (p50: Double, p95: Double)] = [
        .motorStart: (0.010, 0.025),
        .motorStop: (0.010, 0.025),
        .motorLag: (0.010, 0.025),  // seconds of lag
        .feltThreshold: (0.010, 0.025),
        .comfortMax: (0.04, 0.10),
    ]

    @Test func hundredSeedsFindTheHiddenTruth() {
        let seeds: Range<UInt64> = 1..<101
        let m = CalibrationAccuracy.measure(seeds: seeds)
        print("calibration accuracy over seeds \(seeds.lowerBound)..<\(seeds.upperBound): whole calibration \(m.trialsMean) trials mean, \(m.trialsMax) max")
        for f in m.tasks {
            print("  \(f.task.rawValue): error p50 \(f.p50) p95 \(f.p95) worst \(f.worst) (seed \(f.worstSeed)); relative p50 \(f.relativeP50) p95 \(f.relativeP95); trials mean \(f.trialsMean) max \(f.trialsMax)")
            let b = AccuracyTests.bounds[f.task]!
            #expect(f.p50 <= b.p50, "\(f.task.rawValue) p50 \(f.p50) > \(b.p50); worst seed \(f.worstSeed)")
            #expect(f.p95 <= b.p95, "\(f.task.rawValue) p95 \(f.p95) > \(b.p95); worst seed \(f.worstSeed)")
        }
        #expect(m.tasks.count == 5)
        // About two and a half minutes at ~2 s a trial.
        #expect(m.trialsMean <= 80, "mean trials \(m.trialsMean)")
    }

    @Test func sameSeedSameCalibration() {
        var a = SimulatedRig.random(seed: 42)
        var b = SimulatedRig.random(seed: 42)
        let pa = a.run(), pb = b.run()
        #expect(pa.results == pb.results)
        var c = SimulatedRig.random(seed: 43)
        #expect(c.run().results != pa.results)
    }

    /// A perfect person (no noise, no lapses) on a known motor: the procedure's own bias, exactly.
    @Test func noiselessPersonOnAKnownMotor() {
        let motor = ERMModelFixture.weaker
        let person = SimulatedPerson(fingertipThreshold: 0.01, spotThreshold: 0.09, comfortMax: 0.7,
                                     relativeNoise: 0.0001, lapseRate: 0, falseAlarmRate: 0, seed: 1)
        var rig = SimulatedRig(motor: motor, person: person)
        let p = rig.run()
        #expect(abs(p.results[.motorStart]!.estimate - 0.18) <= 0.006, "\(p.results[.motorStart]!)")
        #expect(abs(p.results[.motorStop]!.estimate - 0.06) <= 0.006, "\(p.results[.motorStop]!)")
        #expect(abs(p.results[.feltThreshold]!.estimate - 0.09) <= 0.006, "\(p.results[.feltThreshold]!)")
        #expect(abs(p.results[.comfortMax]!.estimate - 0.7) <= 0.025, "\(p.results[.comfortMax]!)")
        #expect(abs(p.lagSeconds! - 0.1) <= 0.01, "lag \(p.lagSeconds!)")
    }
}
