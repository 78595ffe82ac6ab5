// How fast a change to a playing breath reaches the motor: a session that is steered at random instants
// (strength, pause and resume, pace), measured from each change's arrival to the output of its first
// changed frame. On a simulated board the output time comes from the board's true clock; on a real port
// from the board's own PLAYED tick through the host's clock estimate.
// SPDX-License-Identifier: Apache-2.0

import BoardAccess
import Breath
import MotorSession
import MotorWire
import HostPlatform
import SimBoard

/// How fast changes to a playing breath reached the motor (from ``ControlLatency/run(channel:prepared:world:count:seed:frameRate:)``):
/// latency percentiles as the host reports them and, on a simulated board, on its true clock, and the frames
/// that went wrong. Encodes with the benchmark's snake_case JSON keys.
public struct ControlLatencyResult: Sendable, Codable {
    /// Changes whose latency was measured (strength, pause and resume; pace changes wait for a phase boundary
    /// by design and are not counted).
    public var changes = 0
    /// From the change's arrival to its first frame at the output, as the host reports it (board tick
    /// through the clock estimate), ms.
    public var reportedMs = Percentiles()
    /// The same on the simulated board's true clock (0 on real hardware).
    public var trueMs = Percentiles()
    /// Frames the board output with a value the host did not mean at the time (goal 0).
    public var wrongDuties = 0
    /// Frames whose replacement reached the board after it had output them (they played what was sent for
    /// them before; the change took effect from the next frame), by the board's answers to the REPLACEs.
    public var replacedTooLate = 0
    /// Frames the host replaced on the board after a change.
    public var framesReplaced = 0
    /// From the change's arrival at the host to the arrival at the board of the REPLACE that carried its first
    /// changed frame, on the simulated board's true clock, ms: the link's one-way delay as the change met it.
    public var messageMs = Percentiles()
    /// From that REPLACE's arrival at the board to the output of the change's first frame, ms (at most one
    /// frame period, plus the board's output lead, when the change took the first frame it could).
    public var afterArrivalMs = Percentiles()
    /// Changes whose first changed frame was not the board's next frame to play when their REPLACE arrived
    /// (the first it had not output): by the board's own state, not the host's answer. Goal 0.
    public var notFromBoardsNext = 0
    /// Of those, the ones whose first REPLACE began past the board's next frame: the host's guess of the first
    /// frame a change can reach was late (`Player.firstChangeableFrame`).
    public var lateGuesses = 0

    enum CodingKeys: String, CodingKey {
        case changes, reportedMs = "reported_ms", trueMs = "true_ms", wrongDuties = "wrong_duties"
        case replacedTooLate = "replaced_too_late", framesReplaced = "frames_replaced"
        case messageMs = "message_ms", afterArrivalMs = "after_arrival_ms", notFromBoardsNext = "not_from_boards_next"
        case lateGuesses = "late_guesses"
    }
}

/// Measures how fast a change to a playing breath reaches the motor: steers a looping box breath at random
/// instants (strength, pause, resume, pace) and times each change from its arrival to the output of its
/// first changed frame. On a simulated board the output time comes from the board's true clock; on a real
/// port from the board's PLAYED tick through the host's clock estimate.
///
///     let world = SimWorld(impairments: LinkImpairments(), pacing: .virtual, seed: 1)
///     let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
///     let prepared = try channel.prepare(options: SessionOptions())
///     let result = try ControlLatency.run(channel: channel, prepared: prepared, world: world, count: 20, seed: 1)
///     print(result.trueMs)
public enum ControlLatency {
    /// 250 Hz, reverse drive allowed (braking on a board with an H-bridge).
    public static var defaultOptions: SessionOptions {
        var o = SessionOptions()
        o.allowReverse = true
        return o
    }

    /// The changes, in the order they are made: strength, pause, resume, pace, round and round.
    static func change(_ k: Int, _ rng: inout SplitMix64) -> BreathChange {
        switch k % 4 {
        case 0: return .strength(0.2 + 0.8 * rng.unit())
        case 1: return .pause
        case 2: return .resume
        default: return .pace(breathsPerMinute: 5 + 4 * rng.unit())
        }
    }

    /// Steers a looping box breath `count` times (every 1-2.5 s) on a channel to a prepared board; `world`
    /// (a simulation) gives the true clock. The session ends after the last change's breath. `options`
    /// are the player's (its frame rate, and the adapter it is told of, as a session is).
    public static func run(channel: BoardChannel, prepared: Prepared, world: SimWorld?, count: Int, seed: UInt64,
                           options: SessionOptions = defaultOptions) throws -> ControlLatencyResult {
        let frameRate = options.frameRate
        let resolution = DutyResolution(prepared.config.dutyFormat)
        let live = LiveFrames(plan: LivePlan(pattern: BreathPattern.presets[1], options: BreathOptions(), loop: true),
                              frameRate: frameRate, resolution: resolution, warmup: 0.3)
        let player = Player(channel: channel, prepared: prepared, options: options)
        var truth: TrueTiming?
        if let world {
            world.recordPlays = true
            player.reopen = { world.hostLink }
            truth = TrueTiming(world: world, player: player, expected: live)
        }
        var rng = SplitMix64(seed: seed)
        var applied: [(frame: Int, reportedMs: Double, receivedNs: UInt64)] = []
        var resumedToEnd = false
        /// The replacement counts when the harness resumed to end (its own REPLACEs are not the changes').
        var replacedBeforeEnd: (all: Int, tooLate: Int)?
        player.onEvent = { event in
            // (A pace change waits for the next phase boundary by design: not a latency.)
            guard case .applied(let change, let frame, _, let ms, let received) = event else { return }
            if case .pace = change { return }
            if case .finishAfterThisBreath = change { return }
            if case .resume = change, resumedToEnd { return }  // the harness's own, to end: not one of the `count`
            applied.append((frame, ms, received))
        }
        let clock = channel.clock
        var next = clock.nowNs() + 3_000_000_000
        var made = 0
        var resumeAtEnd = false
        let report = try player.play(live, shouldStop: {
            let t = clock.nowNs()
            if made < count && t >= next {
                let c = change(made, &rng)
                player.controls.send(c)
                made += 1
                // A breath the last change left paused never reaches the end of its cycle: it is resumed a
                // change's interval later, then finishes; any other last change finishes at once.
                if made == count, case .pause = c { resumeAtEnd = true } else if made == count { player.controls.send(.finishAfterThisBreath) }
                next = t + 1_000_000_000 + UInt64(rng.unit() * 1.5e9)
            } else if resumeAtEnd && t >= next {
                resumeAtEnd = false
                resumedToEnd = true
                let sofar = player.report
                replacedBeforeEnd = (sofar.replaced, sofar.replacedTooLate)
                player.controls.send(.resume)
                player.controls.send(.finishAfterThisBreath)
            }
            return false
        })
        var result = ControlLatencyResult()
        result.changes = applied.count
        result.reportedMs = Percentiles(applied.map(\.reportedMs))
        result.framesReplaced = replacedBeforeEnd?.all ?? report.replaced
        result.replacedTooLate = replacedBeforeEnd?.tooLate ?? report.replacedTooLate
        if let world, let truth {
            // The true output time of each change's first frame, from the board's record on its true clock.
            let plays = world.plays
            var trueMs: [Double] = [], messageMs: [Double] = [], afterMs: [Double] = []
            for a in applied {
                guard let p = plays.first(where: { $0.boot < player.wireBases.count && player.wireBases[$0.boot] + Int($0.index) == a.frame })
                else { continue }
                let outputNs = world.clockHistory[p.boot].hostNs(atTick: p.tick)
                trueMs.append((Double(outputNs) - Double(a.receivedNs)) / 1e6)
                // The REPLACE that carried the first changed frame, as the board got it (after the change came).
                let carrier = truth.replaceArrivals.first {
                    $0.boot == p.boot && $0.hostNs >= a.receivedNs && indexDistance(p.index, $0.firstIndex) >= 0
                        && Int(indexDistance(p.index, $0.firstIndex)) < $0.count
                }
                guard let carrier else { continue }  // a change past what was sent: plain FRAMES carried it
                messageMs.append((Double(carrier.hostNs) - Double(a.receivedNs)) / 1e6)
                afterMs.append((Double(outputNs) - Double(carrier.hostNs)) / 1e6)
                // The change must begin at the board's next frame when its message came. One whose message began
                // past that frame counts too: the host's guess was late (it could have reached an earlier frame).
                if carrier.nextPlay != p.index {
                    result.notFromBoardsNext += 1
                    if indexDistance(carrier.firstIndex, carrier.nextPlay) > 0 { result.lateGuesses += 1 }
                }
            }
            result.trueMs = Percentiles(trueMs)
            result.messageMs = Percentiles(messageMs)
            result.afterArrivalMs = Percentiles(afterMs)
            result.wrongDuties = truth.wrongDuties
        }
        return result
    }
}
