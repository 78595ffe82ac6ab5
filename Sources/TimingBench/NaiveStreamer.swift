// The naive approach, for comparison: the host sends each duty byte when it is due and the board
// applies it on arrival (a hobby sketch reading Serial in its loop). Same link, same virtual time.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorSession
import HostPlatform
import SimBoard

/// The naive approach, for comparison with ``SimulatedSession``: the host sends each duty byte when it is
/// due and the board applies it on arrival (a hobby sketch reading Serial in its loop). Same link, same
/// virtual time, judged the same way.
///
///     let naive = try NaiveStreamer.run(TimingScenario(impairments: LinkImpairments()))
///     print(naive.startErrorUs, naive.scheduleErrorUs)
public enum NaiveStreamer {
    /// Plays `scenario`'s breath on a simulated naive board in virtual time (u8 duties, no compensation) and
    /// judges every byte's arrival against the board's true clock at the frame's intended time.
    public static func run(_ scenario: TimingScenario) throws -> TimingResult {
        let wall = Date()
        let board = NaiveBoard()
        let world = SimWorld(impairments: scenario.impairments, pacing: .virtual, firmware: board, seed: scenario.seed)
        let link = world.hostLink
        let clock = world.hostClock
        let plan = try SimulatedSession.plan(scenario)
        var renderer = FrameRenderer(plan: plan, frameRate: scenario.frameRate, resolution: .u8, compensate: false)
        var duties: [UInt16] = []
        renderer.render(count: renderer.frameCount, into: &duties)
        let startNs = clock.nowNs() + 300_000_000
        func intended(_ i: Int) -> UInt64 { startNs + UInt64(i) * 1_000_000_000 / UInt64(scenario.frameRate) }
        for (i, d) in duties.enumerated() {
            // Wait (on the virtual clock) until the frame is due, then send it: exactly on time, the best a
            // host-timed streamer can do (a read timeout in whole milliseconds sent every frame up to 1 ms
            // late, which on a fast link was most of the naive error and flattered motorbreath).
            if clock.nowNs() < intended(i) { world.run(until: intended(i)) }
            try link.write([UInt8(d)])
        }
        world.run(until: clock.nowNs() + 1_000_000_000)
        var r = TimingResult(name: "naive host-timed streamer")
        r.frames = duties.count
        let hz = Double(world.spec.clockHz)
        var errors: [Double] = []
        var tail: [Double] = []
        for (i, arrival) in board.log.enumerated() where i < duties.count {
            let truth = world.clock.ticks(atHostNs: intended(i))
            let e = (Double(arrival.tick) - Double(truth)) / hz * 1e6
            errors.append(abs(e))
            if i == 0 { r.startErrorUs = abs(e) }
            if i >= duties.count - 10 * scenario.frameRate { tail.append(e) }
            if UInt16(arrival.value) != duties[i] { r.wrongDuties += 1 }
        }
        r.framesPlayed = errors.count
        r.underruns = max(0, duties.count - errors.count)
        r.scheduleErrorUs = Percentiles(errors)
        r.driftAtEndUs = tail.isEmpty ? 0 : abs(tail.reduce(0, +) / Double(tail.count))
        r.simulatedSeconds = Double(clock.nowNs() - startNs) / 1e9
        r.wallSeconds = Date().timeIntervalSince(wall)
        return r
    }
}
