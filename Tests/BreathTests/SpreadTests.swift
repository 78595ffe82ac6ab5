// A breath travelling along several actuators (`BreathSpread`): every frame's intended intensity on each
// actuator against the travel written out here from its definition (the ramp's start and length per
// position), not from the code under test; and `together` at full strength is the one-board breath exactly.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SpreadTests {
    /// 4-2-6: a 4 s inhale from 0 to 1, a silent 2 s hold, a 6 s exhale from 1 to 0.
    static func frames(_ spread: BreathSpread?) throws -> [RenderedFrame] {
        var plan = LivePlan(pattern: try BreathPattern.parse("4-2-6"))
        plan.spread = spread
        var renderer = FrameRenderer(pattern: plan.haptics(), duration: plan.duration, frameRate: 250, compensate: false)
        return renderer.renderDetailed(count: renderer.frameCount)
    }

    /// The travel by hand: with half of each phase given to it, the actuator at `position` starts its 2 s
    /// inhale ramp `2 * position` s in, and its 3 s exhale ramp `3 * (1 - position)` s into the exhale.
    static func expected(at t: Double, position: Double, gain: Double) -> Double? {
        let peak = 0.8 * gain
        func clamp(_ x: Double) -> Double { min(1, max(0, x)) }
        if t < 4 { return peak * clamp((t - 2 * position) / 2) }
        if t >= 6 && t < 12 { return peak * (1 - clamp((t - 6 - 3 * (1 - position)) / 3)) }
        return nil
    }

    @Test(arguments: [0.0, 0.25, 0.5, 1.0])
    func theInhaleTravelsOutAndTheExhaleBack(position: Double) throws {
        let gain = position == 0.25 ? 0.6 : 1
        let frames = try Self.frames(BreathSpread(travel: .rise, position: position, gain: gain))
        var checked = 0, worst = 0.0
        for f in frames {
            guard let want = Self.expected(at: f.time, position: position, gain: gain) else { continue }
            worst = max(worst, abs(f.intensity - want))
            checked += 1
        }
        #expect(checked == 2500, "\(checked) frames checked")
        #expect(worst < 1e-9, "position \(position): intensity off by \(worst)")
    }

    /// Where the actuators are apart: the frame each first passes half its peak in the inhale moves by the
    /// travel's share of the phase times the distance between them (4 s x 0.5 x 1 = 2 s = 500 frames).
    @Test func theFirstAndLastActuatorsAreTheTravelApart() throws {
        func halfway(_ position: Double) throws -> Int {
            try #require(try Self.frames(BreathSpread(travel: .rise, position: position)).firstIndex { $0.intensity >= 0.4 })
        }
        #expect(try halfway(1) - halfway(0) == 500)
        #expect(try halfway(0.5) - halfway(0) == 250)
    }

    @Test func togetherAtFullStrengthIsTheOneBoardBreath() throws {
        var options = BreathOptions()
        options.cues = true
        options.holdSignal = .ticks
        var plain = LivePlan(pattern: try BreathPattern.parse("box"), options: options)
        var together = plain
        together.spread = BreathSpread(travel: .together, position: 0.7)
        #expect(plain.haptics() == together.haptics())
        plain.setStrength(0.5, at: 3)
        together.setStrength(0.5, at: 3)
        #expect(plain.haptics(from: 2) == together.haptics(from: 2))
    }

    /// A live edit cuts pieces mid-phase: the travel still follows the whole phase (a strength change at
    /// 1 s inside the first actuator's ramp; the last actuator's ramp, 2 s later, at the new strength).
    @Test func aCutPieceKeepsItsPhasesTravel() throws {
        var plan = LivePlan(pattern: try BreathPattern.parse("4-2-6"))
        plan.spread = BreathSpread(travel: .rise, position: 1)
        plan.setStrength(0.5, at: 1)
        var renderer = FrameRenderer(pattern: plan.haptics(), duration: plan.duration, frameRate: 250, compensate: false)
        let frames = renderer.renderDetailed(count: renderer.frameCount)
        for f in frames where f.time >= 1.2 && f.time < 4 {
            let want = 0.8 * 0.5 * min(1, max(0, (f.time - 2) / 2))
            #expect(abs(f.intensity - want) < 1e-9, "t \(f.time): \(f.intensity), want \(want)")
            if abs(f.intensity - want) >= 1e-9 { break }
        }
    }
}
