// Every fault the simulated link can inject at once: the breath still plays, and never a wrong duty.

import MotorSession
import SimBoard
import Testing
import TimingBench

@Suite struct FaultyLinkTests {
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
