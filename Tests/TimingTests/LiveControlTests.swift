// Steering a breath in virtual time over each link: every change takes effect from the first frame the board
// had not output when its REPLACE arrived (the board's own state, not the host's answer), reaches the motor
// within one frame of that arrival, the host's own latency figure agrees with the board's true clock, and no
// frame plays a value the host did not mean (frames a replacement came too late for play what they had).
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LiveControlTests {
    /// Each link, and for the two plain ones the slowest one-way trip their parameters allow (ms).
    static let links: [(String, Double?)] = [
        ("latency=16ms,jitter=8ms,drift=500ppm", 24), ("latency=1ms,jitter=0.5ms", 1.5),
        ("ftdi", nil), ("ftdi-1ms", nil), ("ch340", nil), ("cp2102", nil), ("cdc", nil),
    ]

    /// Every count of changes ends: the changes go strength, pause, resume, pace, so a count of 2, 6, 10...
    /// ends on a pause, and a paused breath never reached the end of its cycle for the `finish` sent with it
    /// (`latency --changes 30` hung for ever). In virtual time, so a hang is a livelock the world reports.
    @Test(arguments: [1, 2, 3, 4, 6]) func everyCountOfChangesEnds(count: Int) throws {
        let world = SimWorld(pacing: .virtual, seed: 3)
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        var o = SessionOptions()
        o.allowReverse = true
        let r = try ControlLatency.run(channel: channel, prepared: try channel.prepare(options: o), world: world, count: count, seed: 3)
        // Every change but the pace ones is measured (not the resume that ends a breath left paused); the
        // session ended (it returned) on its own.
        #expect(r.changes == (0..<count).filter { $0 % 4 != 3 }.count)
        #expect(Double(world.nowNs) / 1e9 < 120, "the session ran \(Double(world.nowNs) / 1e9) s of virtual time")
    }

    @Test(arguments: links) func aChangeReachesTheMotorOneFrameAfterItsMessage(_ link: (String, Double?)) throws {
        let world = SimWorld(impairments: try LinkImpairments.parse(link.0), pacing: .virtual, seed: 7)
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        var o = SessionOptions()
        o.allowReverse = true
        let r = try ControlLatency.run(channel: channel, prepared: try channel.prepare(options: o), world: world, count: 40, seed: 7)
        print("control latency over \(link.0): true p50 \(r.trueMs.p50) p99 \(r.trueMs.p99) ms; message p99 \(r.messageMs.p99) ms, message to motor max \(r.afterArrivalMs.max) ms; \(r.replacedTooLate) frames replaced too late")
        #expect(r.changes == 30)  // 40 changes, 10 of them pace (they wait for a phase boundary by design)
        #expect(r.trueMs.count == 30 && r.messageMs.count == 30)
        #expect(r.wrongDuties == 0)
        #expect(r.framesReplaced > 0)
        // The board's own state when each REPLACE arrived: the change took its next frame, no later.
        #expect(r.notFromBoardsNext == 0)
        // Then the motor had it within one frame period (250 Hz: 4 ms; the simulated board has no output lead).
        #expect(r.afterArrivalMs.max <= 4.001)
        #expect(r.trueMs.p99 <= r.messageMs.p99 + 4 + 1)
        // On a plain link, within the slowest trip its parameters allow, plus a frame and 1 ms.
        if let slowest = link.1 { #expect(r.trueMs.p99 <= slowest + 4 + 1) }
        // The host's own figure (the board's tick through its clock estimate) is the truth within a ms.
        #expect(abs(r.reportedMs.p50 - r.trueMs.p50) < 1 && abs(r.reportedMs.max - r.trueMs.max) < 1)
    }

    /// Behind a board that hands frames to its output 2 ms ahead (as the `sim-board` process and a DMA-fed
    /// timer do), on a fast link: every change takes the board's next frame to output when its REPLACE came,
    /// never a later one. With a frame of margin past the lead in the host's guess, most changes began a frame
    /// late (the strict count of `notFromBoardsNext`: 15 of 30, all late guesses; true p50 6.2 ms against 4.0).
    @Test func aChangeTakesTheNextFrameBehindAnOutputLead() throws {
        var spec = SimBoardSpec()
        spec.outputLeadMs = 2
        spec.leadInVirtualTime = true
        let world = SimWorld(spec: spec, impairments: try LinkImpairments.parse("latency=0.1ms,jitter=0.05ms"), pacing: .virtual, seed: 7)
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        var o = SessionOptions()
        o.allowReverse = true
        let r = try ControlLatency.run(channel: channel, prepared: try channel.prepare(options: o), world: world, count: 40, seed: 7)
        print("control latency behind a 2 ms output lead: true p50 \(r.trueMs.p50) p99 \(r.trueMs.p99) ms; not from the board's next frame \(r.notFromBoardsNext) (late guesses \(r.lateGuesses)); \(r.replacedTooLate) frames replaced too late")
        #expect(r.changes == 30 && r.trueMs.count == 30)
        #expect(r.wrongDuties == 0)
        #expect(r.notFromBoardsNext == 0 && r.lateGuesses == 0)
        // The next frame past the lead: 2-6 ms after the message, and the message takes 0.1 ms.
        #expect(r.trueMs.max <= 6.5)
    }
}
