// Plays a breath with motorbreath's host session against a simulated board in virtual time, and
// measures every frame the board output against its true clock.

import Breath
import Foundation
import MotorSession
import MotorWire
import SerialLink
import SimBoard

public enum SimulatedSession {
    /// Runs `scenario`; `during` may disturb the world (reboot, unplug, stall) at chosen virtual times.
    public static func run(_ scenario: TimingScenario, options: SessionOptions = SessionOptions(),
                           during: [(atS: Double, action: (SimWorld) -> Void)] = []) throws -> (TimingResult, Player, SimWorld) {
        let wall = Date()
        let world = SimWorld(impairments: scenario.impairments, pacing: .virtual, seed: scenario.seed)
        var opts = options
        opts.frameRate = scenario.frameRate
        opts.allowReverse = true
        let plan = try plan(scenario)
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        let prepared = try channel.prepare(options: opts)
        let renderer = FrameRenderer(plan: plan, frameRate: scenario.frameRate, resolution: .i16)
        let player = Player(channel: channel, prepared: prepared, options: opts)
        player.reopen = { world.hostLink }
        var pending = during.sorted { $0.atS < $1.atS }
        let startNs = world.nowNs
        let report = try player.play(FrameWindow(renderer), shouldStop: {
            while let first = pending.first, Double(world.nowNs - startNs) / 1e9 >= first.atS {
                pending.removeFirst()
                first.action(world)
            }
            return false
        })
        var result = judge(world: world, player: player, scenario: scenario, plan: plan)
        result.retransmits = report.retransmits
        result.retimes = report.retimes
        result.reconnects = report.reconnects
        result.clockDriftPPM = report.clockDriftPPM
        result.prepareMs = report.prepareMs
        result.simulatedSeconds = Double(world.nowNs - startNs) / 1e9
        result.wallSeconds = Date().timeIntervalSince(wall)
        return (result, player, world)
    }

    static func plan(_ s: TimingScenario) throws -> BreathPlan {
        var o = BreathOptions()
        o.length = .minutes(s.minutes)
        return BreathPlan(pattern: try BreathPattern.parse(s.pattern), options: o)
    }

    /// Every played frame against the tick the board's true clock read at the frame's intended host time.
    public static func judge(world: SimWorld, player: Player, scenario: TimingScenario, plan: BreathPlan) -> TimingResult {
        var r = TimingResult(name: "motorbreath")
        var expected = FrameRenderer(plan: plan, frameRate: scenario.frameRate, resolution: .i16)
        var duties: [UInt16] = []
        expected.render(count: expected.frameCount, into: &duties)
        r.frames = duties.count
        var errors: [Double] = []
        var tail: [Double] = []
        let tailFrom = duties.count - 10 * scenario.frameRate
        for f in TrueTiming.frames(world: world, player: player) where f.index < duties.count {
            errors.append(abs(f.errorUs))
            if f.index >= tailFrom { tail.append(f.errorUs) }
            if f.index == 0 { r.startErrorUs = abs(f.errorUs) }
            if f.raw != duties[f.index] {
                if f.raw == 0 { r.underruns += 1 } else { r.wrongDuties += 1 }
            }
        }
        r.framesPlayed = errors.count
        r.scheduleErrorUs = Percentiles(errors)
        r.driftAtEndUs = tail.isEmpty ? 0 : abs(tail.reduce(0, +) / Double(tail.count))
        return r
    }
}
