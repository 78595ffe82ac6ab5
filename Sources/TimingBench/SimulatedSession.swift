// Plays a breath with motorbreath's host session against a simulated board in virtual time, and
// measures every frame the board output against its true clock.
// SPDX-License-Identifier: Apache-2.0

import BoardAccess
import Breath
import Foundation
import MotorSession
import MotorWire
import HostPlatform
import SimBoard

/// Plays a breath with motorbreath's host session (``Player``) against a simulated board in virtual time,
/// and measures every frame the board outputs against its true clock (through ``TrueTiming``).
///
///     var scenario = TimingScenario(impairments: LinkImpairments())
///     scenario.minutes = 1
///     let (result, player, world) = try SimulatedSession.run(scenario)
///     print(result.scheduleErrorUs, result.underruns)
public enum SimulatedSession {
    /// Runs `scenario`; `during` may disturb the world (reboot, unplug, stall) at chosen virtual times.
    /// `recordPlays`: also keep every played frame in `world.plays` (tests read it; off for long sessions).
    public static func run(_ scenario: TimingScenario, options: SessionOptions = SessionOptions(),
                           during: [(atS: Double, action: (SimWorld) -> Void)] = [],
                           recordPlays: Bool = true) throws -> (TimingResult, Player, SimWorld) {
        let wall = Date()
        let world = SimWorld(impairments: scenario.impairments, pacing: .virtual, seed: scenario.seed)
        var opts = options
        opts.frameRate = scenario.frameRate
        opts.allowReverse = scenario.reverse
        // The adapter, as a real port would describe it (unknown on the plain latency ± jitter link).
        if opts.linkProfile == nil { opts.linkProfile = scenario.impairments.model?.profile }
        let plan = try plan(scenario)
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        let prepared = try channel.prepare(options: opts)
        let resolution: DutyResolution = scenario.reverse ? .i16 : .u8
        let renderer = FrameRenderer(plan: plan, frameRate: scenario.frameRate, resolution: resolution)
        let player = Player(channel: channel, prepared: prepared, options: opts)
        player.reopen = { world.hostLink }
        world.recordPlays = recordPlays
        let truth = TrueTiming(world: world, player: player,
                               expected: FrameWindow(FrameRenderer(plan: plan, frameRate: scenario.frameRate, resolution: resolution)),
                               tailFrom: renderer.frameCount - 10 * scenario.frameRate, settledFrom: 3 * scenario.frameRate)
        var pending = during.sorted { $0.atS < $1.atS }
        let startNs = world.nowNs
        let report = try player.play(FrameWindow(renderer), shouldStop: {
            while let first = pending.first, Double(world.nowNs - startNs) / 1e9 >= first.atS {
                pending.removeFirst()
                first.action(world)
            }
            return false
        })
        var result = TimingResult(name: "motorbreath")
        result.frames = renderer.frameCount
        result.framesPlayed = truth.framesPlayed
        result.startErrorUs = truth.startErrorUs
        result.syncBeforeStartMs = truth.syncBeforeStartMs
        result.scheduleErrorUs = truth.scheduleErrorUs
        result.settledScheduleErrorUs = truth.settledScheduleErrorUs
        result.driftAtEndUs = truth.driftAtEndUs
        result.underruns = truth.underruns
        result.wrongDuties = truth.wrongDuties
        result.retransmits = report.retransmits
        result.retimes = report.retimes
        result.reconnects = report.reconnects
        result.clockDriftPPM = report.clockDriftPPM ?? 0  // (a virtual-time session always has an estimate)
        result.prepareMs = report.prepareMs
        result.simulatedSeconds = Double(world.nowNs - startNs) / 1e9
        result.wallSeconds = Date().timeIntervalSince(wall)
        return (result, player, world)
    }

    /// The breath plan `s` describes: its pattern for its length in minutes.
    static func plan(_ s: TimingScenario) throws -> BreathPlan {
        var o = BreathOptions()
        o.length = .minutes(s.minutes)
        return BreathPlan(pattern: try BreathPattern.parse(s.pattern), options: o)
    }

}
