// Steering a breath in virtual time over a 16 +- 8 ms link: every change reaches the motor, the host's own
// latency figure agrees with the board's true clock, nothing is replaced too late, and no frame plays a
// value the host did not mean.
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import SimBoard
import Testing
import TimingBench

@Suite(.timeLimit(.minutes(10))) struct LiveControlTests {
    @Test func changesReachTheMotorWithinAFewFramesOfARoundTrip() throws {
        let world = SimWorld(impairments: try LinkImpairments.parse("latency=16ms,jitter=8ms,drift=500ppm"), pacing: .virtual, seed: 7)
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        var o = SessionOptions()
        o.allowReverse = true
        let r = try ControlLatency.run(channel: channel, prepared: try channel.prepare(options: o), world: world, count: 24, seed: 7)
        print("control latency (virtual time): reported p50 \(r.reportedMs.p50) p99 \(r.reportedMs.p99) ms, true p50 \(r.trueMs.p50) p99 \(r.trueMs.p99) max \(r.trueMs.max) ms")
        #expect(r.changes == 18)  // 24 changes, 6 of them pace (they wait for a phase boundary by design)
        #expect(r.trueMs.count == 18)
        #expect(r.wrongDuties == 0 && r.replacedTooLate == 0)
        #expect(r.framesReplaced > 0)
        // The host's own figure (the board's tick through its clock estimate) is the truth within a ms.
        #expect(abs(r.reportedMs.p50 - r.trueMs.p50) < 1 && abs(r.reportedMs.max - r.trueMs.max) < 1)
        // A round trip is 32 +- 16 ms here; a change lands a few frames after the slowest one-way trip.
        #expect(r.trueMs.p50 < 50 && r.trueMs.max < 100)
    }
}
