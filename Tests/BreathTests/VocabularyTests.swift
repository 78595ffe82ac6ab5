// The vocabulary the skin tells apart: the session-complete taps at 1.0, 0.67, 0.33 of the strength,
// counted taps (one at the inhale, two at the exhale, apart from the swell), a faint sign of life during
// holds (ticks or a pulse: never silent for long), the same from a LivePlan, also after a live edit.
// Oracles: the times and levels written out here, and the modeled felt amplitude of rendered frames.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct VocabularyTests {
    func plan(_ name: String = "4-7-8", _ change: (inout BreathOptions) -> Void) -> BreathPlan {
        var o = BreathOptions()
        change(&o)
        return BreathPlan(pattern: try! BreathPattern.parse(name), options: o)
    }

    func taps(_ p: HapticPattern) -> [(time: Double, intensity: Double)] {
        p.events.filter(\.isTransient).map { ($0.time, $0.intensity) }.sorted { $0.time < $1.time }
    }

    @Test func sessionCompleteTapsFadeFromFullStrength() {
        for strength in [1.0, 0.6, 0.3] {
            let p = plan { $0.cues = true; $0.strength = strength }
            let end = taps(p.haptics).suffix(3)
            let expected: [(Double, Double)] = [(19, 1.0), (19.15, 2.0 / 3), (19.3, 1.0 / 3)]
            for (got, want) in zip(end, expected) {
                #expect(abs(got.time - want.0) < 1e-9 && abs(got.intensity - want.1 * strength) < 1e-9,
                        "strength \(strength): tap \(got) vs \(want)")
            }
        }
    }

    @Test func countedTapsOneAtTheInhaleTwoAtTheExhale() {
        let p = plan { $0.countedTaps = true; $0.cues = true; $0.length = .cycles(2); $0.strength = 0.5 }
        let phaseTaps = taps(p.haptics).dropLast(3)  // without the end taps
        let times = phaseTaps.map(\.time)
        let want = [0, 11, 11.15, 19, 30, 30.15]
        #expect(times.count == want.count && zip(times, want).allSatisfy { abs($0 - $1) < 1e-9 }, "\(times)")
        #expect(phaseTaps.allSatisfy { abs($0.intensity - 0.35) < 1e-9 })
        // The exhale swell waits until after its second tap, so the two are felt apart.
        let exhale = p.haptics.events.first { !$0.isTransient && $0.time > 10 }!
        #expect(abs(exhale.time - 11.3) < 1e-9, "exhale swell at \(exhale.time)")
        // Rendered and played on the model: two separate bumps at the exhale start (the felt amplitude
        // falls between them), one at the inhale start.
        var r = FrameRenderer(plan: p, frameRate: 250, resolution: .i16)
        let frames = r.renderDetailed(count: r.frameCount)
        func peaks(from a: Double, to b: Double) -> Int {
            let felt = frames.filter { $0.time >= a && $0.time < b }.map(\.felt)
            var count = 0, rising = false
            for (x, y) in zip(felt, felt.dropFirst()) {
                if y > x + 1e-4 { rising = true } else if y < x - 1e-4 && rising { count += 1; rising = false }
            }
            return count
        }
        #expect(peaks(from: 10.8, to: 11.3) == 2, "exhale start")
        #expect(peaks(from: -0.1, to: 0.1) == 1, "inhale start")
    }

    /// The longest stretch of a hold with the modeled felt amplitude below `quiet`, seconds.
    func longestQuiet(_ p: BreathPlan, from a: Double, to b: Double, quiet: Double = 0.02) -> Double {
        var r = FrameRenderer(plan: p, frameRate: 250, resolution: .i16)
        let frames = r.renderDetailed(count: r.frameCount).filter { $0.time >= a && $0.time < b }
        var longest = 0.0, run = 0.0
        for f in frames {
            run = f.felt < quiet ? run + 1.0 / 250 : 0
            longest = max(longest, run)
        }
        return longest
    }

    @Test func holdsAreNeverSilentForLongWithTicksOrPulse() {
        // 4-7-8: the hold is 4...11 s. Silent without a signal; with one, never quiet for more than 1.3 s.
        let silent = plan { $0.strength = 0.6 }
        #expect(longestQuiet(silent, from: 4.5, to: 10.6) > 6)
        for signal in [HoldSignal.ticks, .pulse] {
            let p = plan { $0.holdSignal = signal; $0.strength = 0.6 }
            let quiet = longestQuiet(p, from: 4.5, to: 10.6)
            #expect(quiet < 1.3, "\(signal): quiet for \(quiet) s")
        }
        let ticks = taps(plan { $0.holdSignal = .ticks; $0.strength = 0.5 }.haptics)
        #expect(ticks.map(\.time) == [5, 6, 7, 8, 9, 10])
        #expect(ticks.allSatisfy { abs($0.intensity - 0.15) < 1e-9 })
        let pulses = plan { $0.holdSignal = .pulse }.haptics.events.filter { !$0.isTransient && $0.time > 4 && $0.time < 11 }
        #expect(pulses.map(\.time) == [4.5, 6, 7.5, 9])
        #expect(pulses.allSatisfy { $0.duration == 0.5 && abs($0.intensity - 0.2) < 1e-9 && $0.attack > 0 })
        // Box breathing holds after the exhale too (there the swell's control was left at 0).
        let box = plan("box") { $0.holdSignal = .ticks }
        #expect(taps(box.haptics).map(\.time) == [5, 6, 7, 13, 14, 15])
        #expect(longestQuiet(box, from: 12.5, to: 15.6) < 1.3)
    }

    @Test func aLivePlanSaysTheSameAndKeepsTheRhythmAcrossAnEdit() {
        var o = BreathOptions()
        o.length = .cycles(2)
        o.countedTaps = true
        o.cues = true
        o.holdSignal = .ticks
        let pattern = BreathPattern.presets[0]
        let plan = BreathPlan(pattern: pattern, options: o)
        var live = LivePlan(pattern: pattern, options: o)
        let a = taps(plan.haptics), b = taps(live.haptics())
        #expect(a.count == b.count && zip(a, b).allSatisfy { abs($0.time - $1.time) < 1e-9 && abs($0.intensity - $1.intensity) < 1e-9 })
        // A strength change inside the first hold (at 6.5 s) cuts it: the ticks stay on the hold's seconds.
        live.setStrength(0.5, at: 6.5)
        let ticks = taps(live.haptics()).filter { $0.time > 4 && $0.time < 11 }.map(\.time)
        #expect(ticks == [5, 6, 7, 8, 9, 10], "\(ticks)")
        // And from an origin inside the hold (a renderer restarted there), the same ticks, shifted.
        let fromOrigin = taps(live.haptics(from: 7.25)).filter { $0.time < 11 - 7.25 }.map { $0.time + 7.25 }
        #expect(fromOrigin.count == 3 && zip(fromOrigin, [8.0, 9, 10]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(fromOrigin)")
    }
}
