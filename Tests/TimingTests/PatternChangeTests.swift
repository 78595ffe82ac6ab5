// A pattern change while a breath plays, judged on the simulated board's true record (virtual time): at
// the next cycle the new pattern's first inhale starts exactly on the old cycle boundary (board ticks)
// and plays the new phase lengths; `now` fades out and starts it within the documented latency; a change
// at the next cycle in the last cycle is refused. Motor shaping is off, so the drive is the breath's level
// and the phases can be read off the record: a nonzero run is an inhale or an exhale, a zero run a hold.
// SPDX-License-Identifier: Apache-2.0

import BoardAccess
import Breath
import MotorSession
import SimBoard
import Testing
import TimingBench
import TestSupport

/// One run of nonzero drive on the board's record: the ticks of its first and last nonzero frames, and
/// the tick of the frame before it (where an inhale's level is still 0: its phase's first frame).
struct DriveRun {
    var before: UInt64
    var first: UInt64
    var last: UInt64
}

/// A short breath with motor shaping off, steered by `steer` (called with each event and the player).
struct PatternSession {
    let world: SimWorld
    let player: Player
    let live: LiveFrames
    let truth: TrueTiming
    var events: [SessionEvent] = []
    var report = PlayReport()

    init(pattern: String, cycles: Int, seed: UInt64 = 3) throws {
        world = SimWorld(impairments: try LinkImpairments.parse("latency=16ms,jitter=8ms"), pacing: .virtual, seed: seed)
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        var options = SessionOptions()
        options.frameRate = 100
        let prepared = try channel.prepare(options: options)
        var breath = BreathOptions()
        breath.length = .cycles(cycles)
        live = LiveFrames(plan: LivePlan(pattern: try BreathPattern.parse(pattern), options: breath), frameRate: 100,
                          resolution: prepared.config.dutyFormat == .i16 ? .i16 : .u8, compensate: false, warmup: 0.3)
        player = Player(channel: channel, prepared: prepared, options: options)
        world.recordPlays = true
        truth = TrueTiming(world: world, player: player, expected: live)
    }

    /// Plays it; `steer` sees every event (and may send changes through the player's controls).
    mutating func play(steer: @escaping (SessionEvent, Player) -> Void) throws {
        var events: [SessionEvent] = []
        let player = self.player
        player.onEvent = { e in
            events.append(e)
            steer(e, player)
        }
        report = try player.play(live, shouldStop: { false })
        self.events = events
    }

    /// The nonzero runs of the drive, in order (one boot).
    var runs: [DriveRun] {
        var out: [DriveRun] = []
        var previous: PlayRecord?
        for p in world.plays {
            if p.raw != 0 {
                if previous.map({ $0.raw == 0 }) ?? true {
                    out.append(DriveRun(before: previous?.tick ?? p.tick, first: p.tick, last: p.tick))
                } else {
                    out[out.count - 1].last = p.tick
                }
            }
            previous = p
        }
        return out
    }

    var ticksPerSecond: Double { Double(world.clockHistory[0].clockHz) }

    /// Seconds between two board ticks.
    func seconds(_ a: UInt64, _ b: UInt64) -> Double { (Double(b) - Double(a)) / ticksPerSecond }

    var clean: Bool {
        report.failsafeTrips == 0 && report.framesLost == 0 && truth.underruns == 0 && truth.wrongDuties == 0
            && world.clockHistory.count == 1 && report.motorOffAtExit && world.board.output == 0
    }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct PatternChangeTests {
    @Test func atTheNextCycleTheNewPatternStartsOnTheBoundary() throws {
        // 1-1-1-1 (4 s cycles), changed during cycle 2 to 1-2-1-0.5 (4.5 s): cycles 3...5 play it.
        var s = try PatternSession(pattern: "1-1-1-1", cycles: 5)
        let new = try BreathPattern.parse("1-2-1-0.5")
        var sent = false
        try s.play { e, player in
            if case .phase(.inhale, 2, _, _, _, _) = e, !sent {
                sent = true
                player.controls.send(.pattern(new, now: false))
            }
        }
        #expect(s.clean, "\(s.report)")
        let runs = s.runs
        try #require(runs.count == 10, "\(runs.count) nonzero runs: expected an inhale and an exhale in each of 5 cycles")
        let inhales = stride(from: 0, to: 10, by: 2).map { runs[$0] }, exhales = stride(from: 1, to: 10, by: 2).map { runs[$0] }
        let frame = 0.01
        print("pattern next: cycle 3 began \(s.seconds(inhales[0].first, inhales[2].first) - 8) s off the boundary")
        // Cycles 1 and 2 as they were (4 s apart); cycle 3 begins exactly two old cycles after cycle 1.
        #expect(abs(s.seconds(inhales[0].first, inhales[1].first) - 4) < frame / 2)
        #expect(abs(s.seconds(inhales[0].first, inhales[2].first) - 8) < frame / 2,
                "the new pattern began \(s.seconds(inhales[0].first, inhales[2].first) - 8) s off the boundary")
        // Then the new lengths: 4.5 s cycles, a 1 s inhale, a 2 s hold, a 1 s exhale.
        for c in 2..<5 {
            if c < 4 { #expect(abs(s.seconds(inhales[c].first, inhales[c + 1].first) - 4.5) < frame / 2) }
            #expect(abs(s.seconds(inhales[c].before, inhales[c].last) - 1) <= frame * 1.5)
            #expect(abs(s.seconds(inhales[c].last, exhales[c].first) - 2) <= frame * 1.5, "hold of cycle \(c + 1)")
            #expect(abs(s.seconds(exhales[c].first, exhales[c].last) - 1) <= frame * 2.5)
        }
        for c in 0..<2 { #expect(abs(s.seconds(inhales[c].last, exhales[c].first) - 1) <= frame * 1.5, "hold of cycle \(c + 1)") }
        // The applied event names the frame the new pattern reached the motor: its first inhale's first frame.
        let applied = s.events.compactMap { e -> UInt64? in if case .applied(.pattern, _, let tick, _, _) = e { tick } else { nil } }
        #expect(applied == [inhales[2].before], "applied at \(applied), the new inhale's first frame at \(inhales[2].before)")
        // Phase events name the pattern each phase belongs to.
        let named = s.events.compactMap { e -> (Int, String)? in if case .phase(_, let c, let p, _, _, _) = e { (c, p) } else { nil } }
        #expect(named.count == 20)
        #expect(named.allSatisfy { $0.1 == ($0.0 >= 3 ? "1-2-1-0.5" : "1-1-1-1") }, "\(named)")
    }

    @Test func nowFadesOutAndStartsTheNewPatternWithinTheLatency() throws {
        // 1-1-1-1, changed to 3-0.5-1-0.5 now, mid-inhale of cycle 2: cycle 2 starts again in the new pattern.
        var s = try PatternSession(pattern: "1-1-1-1", cycles: 4)
        let new = try BreathPattern.parse("3-0.5-1-0.5")
        var sentNs: UInt64 = 0
        let clock = s.world.hostClock
        try s.play { e, player in
            if case .phase(.inhale, 2, _, _, _, _) = e, sentNs == 0 {
                sentNs = clock.nowNs()
                player.controls.send(.pattern(new, now: true))
            }
        }
        #expect(s.clean, "\(s.report)")
        let runs = s.runs
        // The new inhale: the first nonzero run longer than 2 s (the old ones last 1 s; the fade of the old
        // inhale may run into it). It rises for 3 s: it began 3 s before the frame after its last one.
        let i = try #require(runs.firstIndex { s.seconds($0.first, $0.last) > 2 }, "no 3 s inhale on the board's record")
        let frameTicks = UInt64(s.ticksPerSecond / 100)
        let began = runs[i].last + frameTicks - UInt64(3 * s.ticksPerSecond)
        let delay = (Double(s.world.clockHistory[0].hostNs(atTick: began)) - Double(sentNs)) / 1e9
        print("pattern now: the new pattern began \(Int(delay * 1000)) ms after the command (0.15 s of it the fade)")
        // A change reaches the motor in under 100 ms over this link (docs/control.md), then the 0.15 s fade.
        #expect(delay >= LivePlan.fadeSeconds && delay < LivePlan.fadeSeconds + 0.1 + 0.01, "the new pattern began \(delay) s after the command")
        // Cycles 2, 3 and 4 in the new pattern: a 3 s inhale, a 0.5 s hold, a 1 s exhale, 5 s apart.
        try #require(runs.count == i + 6, "\(runs.count - i) runs from the new inhale on")
        for c in stride(from: i, to: i + 6, by: 2) {
            #expect(abs(s.seconds(runs[c].last, runs[c + 1].first) - 0.5) <= 0.015, "hold")
            #expect(abs(s.seconds(runs[c + 1].first, runs[c + 1].last) - 1) <= 0.025, "exhale")
            // The first cycle after the splice may end a frame early: its frames were rendered from the first
            // frame the change could reach by the fastest trip, and the board took them from a later one.
            let slack = c == i ? 0.0105 : 0.005
            if c < i + 4 { #expect(abs(s.seconds(runs[c].last, runs[c + 2].last) - 5) < slack, "cycle \(c)") }
        }
        let applied = s.events.compactMap { e -> UInt64? in if case .applied(.pattern, _, let tick, _, _) = e { tick } else { nil } }
        #expect(applied.count == 1)
        // The applied tick is where the change reached the motor: the fade was rendered from the first frame
        // the change could reach by the fastest trip (0.15 s before the new inhale), and the board took it
        // from the first frame it had not output when the REPLACE arrived: later by up to the link's spread
        // of one-way delays (16 ms here), so up to 2 frames of the fade played as they were.
        if let tick = applied.first {
            let fadePlayed = s.seconds(tick, began)
            #expect(fadePlayed <= LivePlan.fadeSeconds + 0.005 && fadePlayed > LivePlan.fadeSeconds - 0.03, "fade \(fadePlayed) s")
        }
        let named = s.events.compactMap { e -> (Int, String)? in if case .phase(_, let c, let p, _, _, _) = e { (c, p) } else { nil } }
        #expect(named.filter { $0.1 == new.name }.map(\.0) == [2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4], "\(named)")
    }

    @Test func aChangeAtTheNextCycleInTheLastCycleIsRefused() throws {
        var s = try PatternSession(pattern: "1-1-1-1", cycles: 2)
        try s.play { e, player in
            if case .phase(.inhale, 2, _, _, _, _) = e { player.controls.send(.pattern(BreathPattern.presets[1], now: false)) }
        }
        let refused = s.events.compactMap { e -> String? in if case .refused(.pattern, let reason) = e { reason } else { nil } }
        #expect(refused.count == 1 && refused.first?.contains("no next cycle") == true, "\(refused)")
        #expect(s.clean && s.runs.count == 4)
    }
}

/// A change that takes effect at a later boundary (pace, pattern at the next cycle) leaves every frame
/// before it as an unchanged breath renders it, however far past the rendered frames the boundary lies.
@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LaterBoundaryTests {
    @Test(arguments: ["pace", "pattern"]) func framesBeforeTheBoundaryStayAsTheyWere(change: String) throws {
        var o = BreathOptions()
        o.length = .cycles(2)
        let plan = LivePlan(pattern: try BreathPattern.parse("4-7-8"), options: o)
        let unchanged = LiveFrames(plan: plan, frameRate: 100, resolution: .i16, warmup: 0.3)
        let live = LiveFrames(plan: plan, frameRate: 100, resolution: .i16, warmup: 0.3)
        _ = live.frames(from: 0, count: 100)  // 1 s rendered; the boundary lies 3 s (pace) or 18 s (pattern) on
        let k = live.frame(atBreathTime: 0.5)
        let first = live.apply(change == "pace" ? .pace(breathsPerMinute: 6) : .pattern(BreathPattern.presets[1], now: false), fromFrame: k)
        #expect(first == live.frame(atBreathTime: change == "pace" ? 4 : 19))
        let expected = unchanged.frames(from: 0, count: first), got = live.frames(from: 0, count: first)
        let i = (0..<first).first { expected[$0] != got[$0] }
        #expect(i == nil, "frame \(i ?? 0) of \(first) differs before the boundary")
    }
}


/// A pattern change that would make the session pass 24 hours is refused, as `--cycles` of it would be.
@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct PatternLengthTests {
    @Test func aPatternThatMakesTheSessionTooLongIsRefused() throws {
        var o = BreathOptions()
        o.length = .cycles(40_000)  // 22.2 hours of 1-0-1
        let live = LiveFrames(plan: LivePlan(pattern: try BreathPattern.parse("1-0-1"), options: o), frameRate: 100, resolution: .i16)
        let longer = try BreathPattern.parse("1-0-1.5")  // 40000 x 2.5 s: 27.8 hours
        #expect(live.refusal(.pattern(longer, now: false), fromFrame: 0)
                == "40000 cycles of 1-0-1.5 would make the session last 27.8 hours; the longest session is 24 hours")
        #expect(live.refusal(.pattern(try BreathPattern.parse("1-0-1.1"), now: true), fromFrame: 0) == nil)  // 23.3 hours
    }
}
