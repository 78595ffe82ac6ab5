// LivePlan: unedited it plays exactly what a BreathPlan plays; each edit changes the breath only from
// the instant it takes effect, in the way it promises (pause shifts the rest, pace changes later phases,
// seek starts the phase asked for, finish ends the cycle). Rendered frames are the oracle.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LivePlanTests {
    /// Where two frame runs first differ by more than `tolerance` (i16 levels; nil: equal), to keep failure
    /// messages short. A piece cut in two interpolates its level at the cut: a level may move by 1 or 2.
    func firstDifference(_ a: [UInt16], _ b: [UInt16], tolerance: Int = 0) -> String? {
        func level(_ v: UInt16) -> Int { Int(Int16(bitPattern: v)) }
        if let i = (0..<min(a.count, b.count)).first(where: { abs(level(a[$0]) - level(b[$0])) > tolerance }) {
            return "frame \(i): \(level(a[i])) vs \(level(b[i]))"
        }
        return a.count == b.count ? nil : "lengths \(a.count) vs \(b.count)"
    }

    func frames(_ pattern: HapticPattern, _ duration: Double) -> [UInt16] {
        var r = FrameRenderer(pattern: pattern, duration: duration, frameRate: 250, resolution: .i16)
        var out: [UInt16] = []
        r.render(count: r.frameCount, into: &out)
        return out
    }

    @Test(arguments: ["4-7-8", "box", "sigh", "2-0-3-1"])
    func uneditedItPlaysWhatABreathPlanPlays(name: String) throws {
        for cues in [false, true] {
            var o = BreathOptions()
            o.length = .cycles(2)
            o.cues = cues
            o.strength = 0.6
            let pattern = try BreathPattern.parse(name)
            let plan = BreathPlan(pattern: pattern, options: o)
            let live = LivePlan(pattern: pattern, options: o)
            #expect(abs(live.duration - plan.duration) < 1e-9)
            let d = firstDifference(frames(live.haptics(), live.duration), frames(plan.haptics, plan.duration))
            #expect(d == nil, "\(name), cues \(cues): \(d ?? "")")
        }
    }

    @Test func pauseAndResumeShiftTheRestOfTheBreath() throws {
        var o = BreathOptions()
        o.length = .cycles(2)
        let pattern = try BreathPattern.parse("4-2-4")
        let original = LivePlan(pattern: pattern, options: o)
        var live = original
        live.pause(at: 2)
        #expect(live.duration == .infinity)
        live.resume(at: 7)
        #expect(abs(live.duration - (original.duration + 5)) < 1e-9)
        let before = frames(original.haptics(), original.duration)
        let after = frames(live.haptics(), live.duration)
        // Up to the pause, the same (the motor's lead starts the fade 0.1 s early); silence once the fade and
        // the braking after it are over, until the resume; then the same breath 5 s later (after the fade-in).
        #expect(firstDifference(Array(after[0..<475]), Array(before[0..<475])) == nil)
        let silent = after[(2 * 250 + 125)..<(7 * 250 - 30)]
        #expect(silent.allSatisfy { $0 == 0 }, "not silent while paused")
        let resumedAt = 7 * 250 + 100  // 0.4 s after the resume: faded in, and the motor model settled
        let shifted = Array(after[resumedAt..<(resumedAt + 1000)])
        let originalStretch = Array(before[(resumedAt - 1250)..<(resumedAt - 1250 + 1000)])
        #expect(firstDifference(shifted, originalStretch, tolerance: 2) == nil)
    }

    @Test func strengthChangesFromItsInstantOnly() throws {
        var o = BreathOptions()
        o.length = .cycles(1)
        let pattern = try BreathPattern.parse("6-0-6")
        var live = LivePlan(pattern: pattern, options: o)
        live.setStrength(0.4, at: 3)
        var weaker = o
        weaker.strength = 0.4
        let full = frames(LivePlan(pattern: pattern, options: o).haptics(), 12)
        let changed = frames(live.haptics(), 12)
        let reference = frames(LivePlan(pattern: pattern, options: weaker).haptics(), 12)
        #expect(firstDifference(Array(changed[0..<(3 * 250 - 20)]), Array(full[0..<(3 * 250 - 20)])) == nil)  // (lead steps start 80 ms early)
        // After the 0.1 s ramp and the motor's settling: the breath at strength 0.4.
        let from = 4 * 250
        #expect(firstDifference(Array(changed[from...]), Array(reference[from...]), tolerance: 2) == nil)
        // And the ramp has no jump: over 0.1 s the intended level falls in five steps, none over a fifth of
        // the change (without the ramp it would fall 0.3 at once).
        let levels = stride(from: 2.99, through: 3.12, by: 0.004).map { live.sample(at: $0)!.intensity }
        let steps = zip(levels, levels.dropFirst()).map { abs($0 - $1) }
        #expect(levels.first! - levels.last! > 0.25 && steps.max()! < 0.08, "steps \(steps.max()!)")
    }

    @Test func paceChangesLaterPhasesNotThePlayingOne() throws {
        var o = BreathOptions()
        o.length = .cycles(3)
        let pattern = try BreathPattern.parse("4-0-4")  // 7.5 breaths per minute
        var live = LivePlan(pattern: pattern, options: o)
        let boundary = live.setPace(breathsPerMinute: 15, at: 1)  // during the first inhale
        #expect(boundary == 4)
        let starts = live.phaseStarts.map(\.time)
        #expect(starts.prefix(2) == [0, 4])
        // From the boundary on, phases of 2 s: 4, 6, 8, 10, 12.
        #expect(Array(starts.dropFirst(1)) == [4, 6, 8, 10, 12])
        #expect(abs(live.duration - 14) < 1e-9)
    }

    @Test func seekStartsThePhaseAskedFor() throws {
        var o = BreathOptions()
        o.length = .cycles(3)
        let pattern = try BreathPattern.parse("4-2-4")
        var live = LivePlan(pattern: pattern, options: o)
        live.seek(cycle: 3, phase: 2, at: 1)  // to the third exhale
        let p = try #require(live.phase(at: 1.2))
        #expect(p.kind == .exhale && p.cycle == 3 && abs(p.remaining - 3.95) < 1e-9)
        #expect(abs(live.duration - 5.15) < 1e-9)
    }

    @Test func finishEndsTheBreathThatIsPlaying() throws {
        var o = BreathOptions()
        o.length = .cycles(5)
        let pattern = try BreathPattern.parse("2-1-2")
        var live = LivePlan(pattern: pattern, options: o, loop: true)
        #expect(live.duration >= 60)
        live.finishAfterThisBreath(at: 6)  // cycle 2 plays from 5 s to 10 s
        #expect(abs(live.duration - 10) < 1e-9)
        #expect(!live.looping)
    }

    /// A finish within a seek's 0.15 s fade finishes the cycle sought: it plays whole, then the breath ends
    /// (before, the breath ended with the fade and the sought cycle never played). Backwards and forwards,
    /// looping and counted; a finish after the fade is an ordinary one.
    @Test(arguments: [(1, false), (4, false), (2, true), (6, true)])
    func aFinishInASeeksFadeFinishesTheCycleSought(cycle: Int, loop: Bool) throws {
        var o = BreathOptions()
        o.length = .cycles(5)
        var live = LivePlan(pattern: try BreathPattern.parse("2-1-2"), options: o, loop: loop)
        live.seek(cycle: cycle, phase: 0, at: 7)  // in cycle 2's hold
        live.finishAfterThisBreath(at: 7.05)
        let starts = live.phaseStarts.filter { $0.time > 7 }
        #expect(starts.map(\.cycle) == [cycle, cycle, cycle], "\(live.phaseStarts.map { ($0.cycle, $0.time) })")
        #expect(abs(live.duration - (7.15 + 5)) < 1e-9, "\(live.duration)")
        #expect(!live.looping)

        var after = LivePlan(pattern: try BreathPattern.parse("2-1-2"), options: o, loop: loop)
        after.seek(cycle: cycle, phase: 0, at: 7)
        after.finishAfterThisBreath(at: 8)  // the sought cycle playing since 7.15 s
        #expect(abs(after.duration - (7.15 + 5)) < 1e-9, "\(after.duration)")
    }
}

/// A pattern change: at the next cycle the cycle playing ends as planned and the rest plays the new
/// pattern; a later pace change keeps the rest of a cycle in the pattern it began in.
@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LivePlanPatternTests {
    func starts(_ plan: LivePlan) -> [String] {
        plan.phaseStarts.map { "\($0.cycle) \($0.kind.rawValue) \($0.pattern) \(($0.time * 1000).rounded() / 1000)" }
    }

    @Test func atTheNextCycleTheCyclePlayingEndsAsPlanned() throws {
        var o = BreathOptions()
        o.length = .cycles(3)
        var plan = LivePlan(pattern: try BreathPattern.parse("1-1-1-1"), options: o)
        let begins = plan.setPattern(try BreathPattern.parse("1-2-1-0.5"), at: 4.3, now: false)
        #expect(begins == 8)
        #expect(starts(plan) == ["1 inhale 1-1-1-1 0.0", "1 hold 1-1-1-1 1.0", "1 exhale 1-1-1-1 2.0", "1 hold-out 1-1-1-1 3.0",
                                 "2 inhale 1-1-1-1 4.0", "2 hold 1-1-1-1 5.0", "2 exhale 1-1-1-1 6.0", "2 hold-out 1-1-1-1 7.0",
                                 "3 inhale 1-2-1-0.5 8.0", "3 hold 1-2-1-0.5 9.0", "3 exhale 1-2-1-0.5 11.0", "3 hold-out 1-2-1-0.5 12.0"])
        #expect(plan.duration == 12.5 && plan.cycles == 3)
        // In the last cycle there is no next one: nothing changes.
        #expect(plan.setPattern(BreathPattern.presets[1], at: 8.5, now: false) == nil)
        #expect(plan.pattern.name == "1-2-1-0.5")
    }

    @Test func aPaceChangeKeepsTheRestOfACycleInItsPattern() throws {
        var o = BreathOptions()
        o.length = .cycles(2)
        var plan = LivePlan(pattern: try BreathPattern.parse("4-7-8"), options: o)
        plan.setPattern(BreathPattern.presets[1], at: 2, now: false)
        plan.setPace(breathsPerMinute: 7.5, at: 2)  // box at 7.5/min: 8 s cycles, 2 s phases
        #expect(starts(plan) == ["1 inhale 4-7-8 0.0", "1 hold 4-7-8 4.0", "1 exhale 4-7-8 7.5",
                                 "2 inhale box 11.5", "2 hold box 13.5", "2 exhale box 15.5", "2 hold-out box 17.5"])
    }

    @Test func nowStartsTheCyclePlayingAgainAfterTheFade() throws {
        var o = BreathOptions()
        o.length = .cycles(2)
        var plan = LivePlan(pattern: try BreathPattern.parse("1-1-1-1"), options: o)
        #expect(plan.setPattern(try BreathPattern.parse("3-0-1"), at: 1.5, now: true) == 1.65)
        #expect(Array(starts(plan).dropFirst()) == ["1 hold 1-1-1-1 1.0", "1 inhale 3-0-1 1.65", "1 exhale 3-0-1 4.65",
                                                    "2 inhale 3-0-1 5.65", "2 exhale 3-0-1 8.65"])
        // Paused: the resume starts the cycle again in the new pattern.
        var paused = LivePlan(pattern: try BreathPattern.parse("1-1-1-1"), options: o)
        paused.pause(at: 0.5)
        paused.setPattern(try BreathPattern.parse("3-0-1"), at: 2, now: true)
        paused.resume(at: 3)
        #expect(starts(paused) == ["1 inhale 1-1-1-1 0.0", "1 inhale 3-0-1 3.0", "1 exhale 3-0-1 6.0",
                                   "2 inhale 3-0-1 7.0", "2 exhale 3-0-1 10.0"])
    }
}

/// A pace change while paused: the phase the resume goes on with plays at the new pace too (its rest
/// scaled), and so does everything after it.
@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LivePlanPausedPaceTests {
    @Test(arguments: [false, true]) func thePhaseResumedIntoTakesTheNewPace(loop: Bool) throws {
        var o = BreathOptions()
        o.length = .cycles(2)
        var plan = LivePlan(pattern: try BreathPattern.parse("4-2-4"), options: o, loop: loop)
        plan.pause(at: 2)  // half-way through the 4 s inhale
        plan.setPace(breathsPerMinute: 3, at: 3)  // 20 s cycles: twice as slow
        plan.resume(at: 5)
        let starts = plan.phaseStarts.prefix(6).map { "\($0.cycle) \($0.kind.rawValue) \($0.time)" }
        // The inhale's last 2 s take 4, then 4 s hold, 8 s exhale, and cycle 2 at the new pace.
        #expect(starts == ["1 inhale 0.0", "1 hold 9.0", "1 exhale 13.0", "2 inhale 21.0", "2 hold 29.0", "2 exhale 33.0"])
        #expect(loop || abs(plan.duration - 41) < 1e-9)
        // The inhale goes on rising from where the pause left it, to its top at its new end.
        let s = try #require(plan.sample(at: 7))
        #expect(s.phase == .inhale && abs(s.phaseRemaining - 2) < 1e-9 && abs(s.intensity - 0.75) < 1e-9, "\(s)")
    }
}
