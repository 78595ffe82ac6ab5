// Every fault the simulated link can inject at once: the breath still plays, and never a wrong duty.
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct FaultyLinkTests {
    @Test func everyFaultAtOnceNeverPlaysAWrongDuty() throws {
        let faults = try LinkImpairments.parse("latency=16ms,jitter=8ms,drift=300ppm,corrupt=0.002,drop=0.001,dup=0.001,burst=0.02")
        #expect(faults.duplicatePerByte == 0.001 && faults.burstPerChunk == 0.02)
        var s = TimingScenario(impairments: faults)
        s.minutes = 1
        let (r, player, _) = try SimulatedSession.run(s)
        print("faulty link: \(r.framesPlayed)/\(r.frames) played, \(r.underruns) underruns, \(r.wrongDuties) wrong, \(player.report.retransmits) retransmits, p99 \(r.scheduleErrorUs.p99) µs")
        #expect(r.wrongDuties == 0)
        // Faults were really injected: the host had to repair.
        #expect(player.report.retransmits > 0)
        #expect(r.framesPlayed + r.underruns >= r.frames - 1)
        #expect(Double(r.underruns) < 0.01 * Double(r.frames))
        #expect(player.report.motorOffAtExit)
    }
}

/// A line that corrupts 1 % of bytes (a 32-frame message is then lost about half the time): the session
/// prepares within a second, plays every frame in time, never a wrong duty, and confirms the motor off.
/// At 3 % it degrades (frames may underrun) but still starts, ends, and confirms the motor off.
@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct NoisyLineTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func onePercentCorruption(seed: UInt64) throws {
        var s = TimingScenario(impairments: try LinkImpairments.parse("latency=16ms,jitter=8ms,drift=500ppm,corrupt=0.01"))
        s.minutes = 1
        s.seed = seed
        let (r, player, _) = try SimulatedSession.run(s, recordPlays: false)
        print("1 % corruption, seed \(seed): prepare \(r.prepareMs) ms, \(r.underruns) underruns, \(r.wrongDuties) wrong, p99 \(r.scheduleErrorUs.p99) µs")
        #expect(r.prepareMs < 1500)
        #expect(r.underruns == 0 && r.wrongDuties == 0 && r.framesPlayed == r.frames)
        #expect(player.report.motorOffAtExit)
        #expect(player.report.wrongDuties == 0)  // the host's own judgement agrees
    }

    @Test func threePercentDegradesButEndsWithTheMotorOff() throws {
        for (n, faults) in ["corrupt=0.03", "drop=0.03", "dup=0.03"].enumerated() {
            var s = TimingScenario(impairments: try LinkImpairments.parse("latency=16ms,jitter=8ms,drift=500ppm," + faults))
            s.minutes = 0.5
            s.seed = UInt64(n + 1)
            let (r, player, _) = try SimulatedSession.run(s, recordPlays: false)
            print("\(faults): prepare \(r.prepareMs) ms, \(r.underruns)/\(r.frames) underruns, \(r.wrongDuties) wrong")
            #expect(r.wrongDuties == 0)
            #expect(r.underruns < r.frames / 10)
            #expect(player.report.motorOffAtExit)
        }
    }
}
