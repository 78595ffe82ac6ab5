// The simulated board's physics: ERM lag, stall threshold and braking; LRA speed and resonance; clock drift.
// SPDX-License-Identifier: Apache-2.0

import Breath
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct MotorModelTests {
    /// Seconds until `model` driven at `drive` reaches `fraction` of `target`, in 1 ms steps.
    func timeToReach(_ model: some MotorModel, drive: Double, fraction: Double, target: Double) -> Double {
        var m = model
        for ms in 1...2000 {
            m.advance(drive: drive, seconds: 0.001)
            if m.amplitude >= fraction * target { return Double(ms) / 1000 }
        }
        return .infinity
    }

    @Test func ermRisesWithItsTimeConstant() {
        // First-order lag: 90 % after tau * ln 10 = 184 ms for tau = 80 ms.
        let t = timeToReach(ERMModel(riseTau: 0.080), drive: 1, fraction: 0.9, target: 1)
        #expect(abs(t - 0.184) <= 0.002)
    }

    @Test func ermDoesNotStartBelowItsThreshold() {
        var m = ERMModel(startThreshold: 0.15)
        m.advance(drive: 0.10, seconds: 1)
        #expect(m.amplitude == 0)
        m.advance(drive: 0.20, seconds: 1)
        #expect(m.amplitude > 0.19)
        m.advance(drive: 0.10, seconds: 1)  // once spinning, a lower drive keeps it going
        #expect(m.amplitude > 0.09)
    }

    @Test func reverseDriveBrakesFasterThanCoasting() {
        var coast = ERMModel(), brake = ERMModel()
        coast.advance(drive: 1, seconds: 1)
        brake.advance(drive: 1, seconds: 1)
        coast.advance(drive: 0, seconds: 0.03)
        brake.advance(drive: -1, seconds: 0.03)
        #expect(brake.amplitude < coast.amplitude / 3)
    }

    @Test func lraFollowsFastAndNeedsResonance() {
        let t = timeToReach(LRAModel(tau: 0.008), drive: 1, fraction: 0.9, target: 1)
        #expect(t < 0.020)
        var off = LRAModel(resonanceHz: 175, carrierHz: 150)
        off.advance(drive: 1, seconds: 1)
        #expect(off.amplitude < 0.6)
        #expect(LRAModel(resonanceHz: 175, carrierHz: 175).resonanceGain == 1)
    }

    @Test func simClockRunsFastBySetDrift() {
        let c = SimClock(clockHz: 1_000_000, offsetTicks: 1000, driftPPM: 500, bootNs: 0)
        #expect(c.ticks(atHostNs: 1_000_000_000) == 1000 + 1_000_500)
        #expect(c.ticks(atHostNs: 600_000_000_000) == 1000 + 600_300_000)
        let t = c.hostNs(atTick: 1000 + 1_000_500)
        #expect(c.ticks(atHostNs: t) == 1000 + 1_000_500)
    }
}
