// A travelling breath (`BreathSpread`) through live edits and its own strength: a strength change's cut
// pieces, a renderer picking up mid-piece, a pace change while paused, and the gain on holds and cue taps,
// each against the travel or the scale written out here from its definition.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SpreadEditTests {
    static func frames(_ pattern: HapticPattern, duration: Double) -> [RenderedFrame] {
        var renderer = FrameRenderer(pattern: pattern, duration: duration, frameRate: 250, compensate: false)
        return renderer.renderDetailed(count: renderer.frameCount)
    }

    /// 4-2-6 on the last actuator (its 2 s inhale ramp starts 2 s in), strength 0.5 from 1 s: the pieces
    /// before the cut and those the 0.1 s strength ramp cuts keep the whole phase's travel, whether the
    /// renderer starts at 0 or picks up inside one of the ramp's pieces (1.05 s).
    @Test(arguments: [0.0, 1.05])
    func everyCutPieceKeepsItsPhasesTravel(origin: Double) throws {
        var plan = LivePlan(pattern: try BreathPattern.parse("4-2-6"))
        plan.spread = BreathSpread(travel: .rise, position: 1)
        plan.setStrength(0.5, at: 1)
        var worst = 0.0, checked = 0
        for f in Self.frames(plan.haptics(from: origin), duration: plan.duration - origin) {
            let t = f.time + origin
            guard t < 4 else { break }
            // Before 2 s the last actuator holds the inhale's start level (0), whatever the strength.
            let want = t < 2 ? 0 : 0.8 * 0.5 * (t - 2) / 2
            worst = max(worst, abs(f.intensity - want))
            checked += 1
        }
        #expect(checked > 700)
        #expect(worst < 1e-9, "from \(origin) s: intensity off by \(worst)")
    }

    /// Paused at 1 s into the 4 s inhale, the pace doubled (12 s cycle to 6 s), resumed at 5 s: the rest of
    /// the inhale is a 2 s phase's, 0.5 s into it, so the last actuator's ramp (the phase's second half) runs
    /// from 5.5 s to 6.5 s at full strength (the resume's 0.15 s fade-in over by then).
    @Test func aPaceChangeWhilePausedMovesTheTravelWithThePhase() throws {
        var plan = LivePlan(pattern: try BreathPattern.parse("4-2-6"))
        plan.spread = BreathSpread(travel: .rise, position: 1)
        plan.pause(at: 1)
        plan.setPace(breathsPerMinute: 10, at: 3)
        plan.resume(at: 5)
        var worst = 0.0, checked = 0
        for f in Self.frames(plan.haptics(from: 5), duration: 1.5) {
            let t = f.time + 5
            guard t >= 5.15 && t < 6.5 else { continue }
            let want = 0.8 * min(1, max(0, t - 5.5))
            worst = max(worst, abs(f.intensity - want))
            checked += 1
        }
        #expect(checked > 300)
        #expect(worst < 1e-9, "intensity off by \(worst)")
    }

    /// An actuator's own strength scales everything it plays: with cues and hold ticks, a breath at gain 0.5
    /// is the one-board breath with every event at half its intensity (taps, ticks, swells, end taps).
    @Test(arguments: [BreathSpread.Travel.together, .rise])
    func theGainScalesHoldsAndTaps(travel: BreathSpread.Travel) throws {
        var options = BreathOptions()
        options.cues = true
        options.holdSignal = .ticks
        let plain = LivePlan(pattern: try BreathPattern.parse("box"), options: options)
        var half = plain, full = plain
        half.spread = BreathSpread(travel: travel, position: 0.5, gain: 0.5)
        full.spread = BreathSpread(travel: travel, position: 0.5, gain: 1)
        let a = full.haptics().events, b = half.haptics().events
        #expect(a.count == b.count && a.count > 10)
        #expect(a.contains { $0.kind == .transient })
        let unscaled = zip(a, b).first { x, y in !(x.kind == y.kind && x.time == y.time && abs(y.intensity - 0.5 * x.intensity) < 1e-12) }
        #expect(unscaled == nil, "\(String(describing: unscaled)): gain 1, then gain 0.5")
    }
}
