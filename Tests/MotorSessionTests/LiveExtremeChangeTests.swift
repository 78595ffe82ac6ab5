// Live changes with the values a client or an app can send, fed straight to `LiveFrames` (what the player
// applies them to): paces, strengths and sharpnesses that are NaN, infinite, 0, negative or huge; seeks to
// cycles and phases at the ends of the Int range; thousands of alternating pauses, resumes, seeks and
// paces. None may trap, and the frames stay frames: the count finite, every duty within the format.
// And a looping breath keeps every phase through a pace or a seek, in its plan and in its frames (issue 39:
// the next cycle's hold and exhale were skipped, the drive falling from 79 % to a fresh inhale).
// SPDX-License-Identifier: Apache-2.0

import Breath
@testable import MotorSession
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LiveExtremeChangeTests {
    static let extremes: [BreathChange] = [
        .pace(breathsPerMinute: .nan), .pace(breathsPerMinute: .infinity), .pace(breathsPerMinute: -.infinity),
        .pace(breathsPerMinute: 0), .pace(breathsPerMinute: -5), .pace(breathsPerMinute: 1e-300), .pace(breathsPerMinute: 1e300),
        .pace(breathsPerMinute: .leastNonzeroMagnitude), .pace(breathsPerMinute: .greatestFiniteMagnitude),
        .strength(.nan), .strength(.infinity), .strength(-.infinity), .strength(-1), .strength(1e300),
        .sharpness(.nan), .sharpness(.infinity), .sharpness(-1e300),
        .seek(cycle: Int.max, phase: Int.max), .seek(cycle: Int.min, phase: Int.min), .seek(cycle: 0, phase: -1),
        .seek(cycle: 1_000_000_000_000, phase: 2), .seek(cycle: -1, phase: 99),
    ]

    /// A 4-7-8 at 250 Hz, u8, 1 s of warm-up, looping or 3 cycles.
    static func live(loop: Bool) throws -> LiveFrames {
        var o = BreathOptions()
        o.length = .cycles(3)
        return LiveFrames(plan: LivePlan(pattern: try BreathPattern.parse("4-7-8"), options: o, loop: loop), frameRate: 250,
                          resolution: .u8, warmup: 1)
    }

    /// Every frame a source gives is a u8 duty, and there are as many as asked for, up to its end.
    static func checkFrames(_ live: LiveFrames, from k: Int, _ what: String) {
        let count = live.frameCount
        #expect(count >= 0 && count < 250 * 86_400 * 2, "\(what): \(count) frames")
        let frames = live.frames(from: k, count: 2_000)
        #expect(frames.count == max(0, min(2_000, count - k)), "\(what): \(frames.count) of \(count - k)")
        #expect(frames.allSatisfy { $0 <= 255 }, "\(what)")
    }

    @Test(arguments: [false, true], 0..<LiveExtremeChangeTests.extremes.count)
    func anExtremeChangeNeitherTrapsNorBreaksTheFrames(loop: Bool, index: Int) throws {
        let change = Self.extremes[index]
        let live = try Self.live(loop: loop)
        _ = live.frames(from: 0, count: 1_500)
        let k = 1_000
        let first = live.apply(change, fromFrame: k)
        #expect(first >= k, "\(change): from \(first)")
        Self.checkFrames(live, from: k, "\(change)")
        // And the breath still takes an ordinary change after it.
        live.apply(.pace(breathsPerMinute: 6), fromFrame: k + 500)
        Self.checkFrames(live, from: k + 500, "\(change), then a pace")
    }

    /// Thousands of changes, alternating pause, resume, seek and pace with the extremes among them, each a
    /// few frames after the one before (as a burst of clients sends them): no trap, frames throughout.
    @Test(arguments: [false, true]) func thousandsOfAlternatingChanges(loop: Bool) throws {
        let seed: UInt64 = 0x39_39
        print("thousandsOfAlternatingChanges: seed \(seed)")
        var rng = SplitMix64(seed: seed)
        let live = try Self.live(loop: loop)
        var k = 300
        for n in 0..<4_000 {
            let change: BreathChange = switch n % 6 {
            case 0: .pause
            case 1: .resume
            case 2: .seek(cycle: 1 + Int(rng.next() % 3), phase: Int(rng.next() % 3))
            case 3: .pace(breathsPerMinute: 1 + rng.unit() * 29)
            case 4: Self.extremes[Int(rng.next() % UInt64(Self.extremes.count))]
            default: .strength(rng.unit())
            }
            guard k < live.frameCount else { break }  // a non-looping breath may end (a seek past its cycles)
            _ = live.frames(from: k, count: 8)
            live.apply(change, fromFrame: k)
            k += 1 + Int(rng.next() % 20)
        }
        Self.checkFrames(live, from: min(k, live.frameCount), "after the burst (seed \(seed))")
    }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LoopKeepsEveryPhaseTests {
    /// (pattern, change at breath second `at`): paces and seeks landing in each phase of the cycle.
    static let cases: [(String, BreathChange, Double)] = [
        ("4-7-8", .pace(breathsPerMinute: 6), 2), ("4-7-8", .pace(breathsPerMinute: 6), 6),
        ("4-7-8", .pace(breathsPerMinute: 20), 14), ("4-7-8", .pace(breathsPerMinute: 2), 25),
        ("4-7-8", .seek(cycle: 3, phase: 1), 5), ("4-7-8", .seek(cycle: 2, phase: 2), 30),
        ("4-7-8", .seek(cycle: 1, phase: 0), 12), ("4-7-8", .seek(cycle: 7, phase: 2), 3),
        ("box", .pace(breathsPerMinute: 10), 5), ("box", .pace(breathsPerMinute: 3), 9), ("box", .seek(cycle: 2, phase: 3), 1),
        ("box", .seek(cycle: 4, phase: 1), 13), ("coherent", .pace(breathsPerMinute: 8), 7), ("coherent", .seek(cycle: 2, phase: 1), 3),
    ]

    /// The phases a looping plan plays from `t` on, sampled every 20 ms for 200 s, each change of phase the
    /// next in the pattern's order (its cycle one more when it wraps), none skipped. The fade of a seek is
    /// the phase it cut, then the sought one: the first change after `t` may jump; every later one may not.
    static func checkOrder(_ plan: LivePlan, pattern: BreathPattern, from t: Double, _ what: String) {
        let kinds = pattern.phases.map(\.kind)
        var last: (kind: BreathPhase, cycle: Int)?
        var changes = 0
        var time = t
        while time < t + 200 {
            defer { time += 0.02 }
            guard let p = plan.phase(at: time) else { continue }
            defer { last = (p.kind, p.cycle) }
            guard let l = last, l.kind != p.kind || l.cycle != p.cycle else { continue }
            changes += 1
            if changes == 1 && time < t + 1 { continue }  // the seek's jump
            let i = kinds.firstIndex(of: l.kind)!
            let next = kinds[(i + 1) % kinds.count], cycle = i + 1 == kinds.count ? l.cycle + 1 : l.cycle
            #expect(p.kind == next && p.cycle == cycle,
                    "\(what): at \(time) s \(l.kind.rawValue) of cycle \(l.cycle) went to \(p.kind.rawValue) of cycle \(p.cycle)")
            if p.kind != next || p.cycle != cycle { return }
        }
        #expect(changes > 10, "\(what): \(changes) phase changes")
    }

    @Test(arguments: 0..<LoopKeepsEveryPhaseTests.cases.count)
    func aPaceOrASeekInALoopKeepsEveryPhase(index: Int) throws {
        let (name, change, at) = Self.cases[index]
        let pattern = try BreathPattern.parse(name)
        var plan = LivePlan(pattern: pattern, loop: true)
        switch change {
        case .pace(let bpm): plan.setPace(breathsPerMinute: bpm, at: at)
        case .seek(let cycle, let phase): plan.seek(cycle: cycle, phase: phase, at: at)
        default: Issue.record("not a pace or a seek")
        }
        plan.extend(through: at + 300)
        Self.checkOrder(plan, pattern: pattern, from: at, "\(name) \(change) at \(at) s")
    }

    /// The same through the frames: a looping 4-7-8 at 100 Hz, a pace or a seek made at a frame, the frames
    /// rendered far ahead (the loop extended as the player asks for them). In the plan the frames follow,
    /// every phase follows the one before it; and in the frames, each inhale after the change starts from
    /// the low drive an exhale leaves (under a third of the breath's highest), never from a held top (79 %).
    @Test(arguments: [BreathChange.pace(breathsPerMinute: 5), .pace(breathsPerMinute: 4), .seek(cycle: 2, phase: 1), .seek(cycle: 5, phase: 2)])
    func theFramesOfALoopKeepEveryExhale(change: BreathChange) throws {
        let pattern = try BreathPattern.parse("4-7-8")
        let live = LiveFrames(plan: LivePlan(pattern: pattern, loop: true), frameRate: 100, resolution: .u8, warmup: 0.3)
        let k = live.frame(atBreathTime: 6)  // in cycle 1's hold
        _ = live.frames(from: 0, count: k + 200)
        live.apply(change, fromFrame: k)
        let frames = live.frames(from: 0, count: 100 * 240)
        Self.checkOrder(live.plan, pattern: pattern, from: 6, "frames, \(change)")
        let top = Double(frames.max() ?? 0)
        #expect(top > 100)
        var inhales = 0
        for s in live.plan.phaseStarts where s.kind == .inhale && s.time > 7 && live.frame(atBreathTime: s.time) < frames.count {
            let i = live.frame(atBreathTime: s.time)
            let before = frames[(i - 10)..<i].map(Double.init).reduce(0, +) / 10
            #expect(before < top / 3, "\(change): before the inhale of cycle \(s.cycle) at \(s.time) s the drive was \(before) of \(top)")
            inhales += 1
        }
        #expect(inhales >= 5)
    }
}
