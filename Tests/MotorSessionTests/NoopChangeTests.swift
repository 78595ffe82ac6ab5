// A change that changes nothing leaves every frame as it was: the oracle is a fresh renderer of the same
// plan, frame for frame. A strength or sharpness the breath already has is no change at all (nothing is
// re-rendered; before, it re-rendered and later phase starts' leads came out different, up to 255 of 255).
// Within the warm-up and the breath's first second a re-render on an unchanged plan matches the fresh one
// (before, one in the warm-up took its frames from the wrong index: 2,203 of 2,575 differed; one in the
// first second began with a cold motor model: 13-66 differed). Later in the breath it does not yet: the
// restarted renderer plans the motor's lead at later phase starts differently (issue 39), recorded below
// as a known issue so that its fix shows.
// SPDX-License-Identifier: Apache-2.0

import Breath
@testable import MotorSession
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct NoopChangeTests {
    func live(_ pattern: String, strength: Double, warmup: Double) throws -> LiveFrames {
        var o = BreathOptions()
        o.length = .cycles(2)
        o.strength = strength
        return LiveFrames(plan: LivePlan(pattern: try BreathPattern.parse(pattern), options: o), frameRate: 250,
                          resolution: .u8, warmup: warmup)
    }

    /// For every `step`-th frame k in `range` (nil: the whole breath), `edit` at k: the frames that then
    /// differ from the fresh render (k, how many, the first, the largest difference).
    func noopChanges(_ pattern: String, strength: Double, warmup: Double, upToBreathTime: Double?, step: Int,
                     edit: (LiveFrames, Int) -> Void) throws -> [(k: Int, frames: Int, first: Int, worst: Int)] {
        let fresh = try live(pattern, strength: strength, warmup: warmup)
        let expected = fresh.frames(from: 0, count: fresh.frameCount)
        let end = upToBreathTime.map { fresh.frame(atBreathTime: $0) } ?? expected.count
        var changed: [(k: Int, frames: Int, first: Int, worst: Int)] = []
        for k in stride(from: 0, to: min(end, expected.count), by: step) {
            let steered = try live(pattern, strength: strength, warmup: warmup)
            _ = steered.frames(from: 0, count: k)  // what had been sent when the change came
            edit(steered, k)
            let got = steered.frames(from: 0, count: steered.frameCount)
            let differ = (0..<max(got.count, expected.count)).filter { $0 >= got.count || $0 >= expected.count || got[$0] != expected[$0] }
            let worst = differ.filter { $0 < got.count && $0 < expected.count }.map { abs(Int(got[$0]) - Int(expected[$0])) }.max() ?? 0
            if !differ.isEmpty { changed.append((k, differ.count, differ[0], worst)) }
        }
        return changed
    }

    @Test(arguments: [("2-1-2", 0.8, 0.3), ("4-7-8", 1.0, 0.3), ("2-1-2", 0.8, 0.0), ("4-7-8", 0.6, 1.0)])
    func aReRenderInTheWarmupAndFirstSecondChangesNoFrame(pattern: String, strength: Double, warmup: Double) throws {
        let changed = try noopChanges(pattern, strength: strength, warmup: warmup, upToBreathTime: 1.0, step: 7) { $0.restart(at: $1) }
        #expect(changed.isEmpty, "\(pattern) at \(strength), warm-up \(warmup) s: \(changed.prefix(6))")
    }

    @Test(arguments: [("2-1-2", 0.8, 0.3), ("4-7-8", 1.0, 0.3), ("4-7-8", 0.6, 1.0)])
    func theSameStrengthOrSharpnessAnywhereChangesNoFrame(pattern: String, strength: Double, warmup: Double) throws {
        let same = try noopChanges(pattern, strength: strength, warmup: warmup, upToBreathTime: nil, step: 41) {
            $0.apply(.strength(strength), fromFrame: $1)
        }
        #expect(same.isEmpty, "strength \(strength): \(same.count) of the changes altered frames; first: \(same.prefix(4))")
        let sharp = try noopChanges(pattern, strength: strength, warmup: warmup, upToBreathTime: nil, step: 41) {
            $0.apply(.sharpness(BreathOptions().sharpness), fromFrame: $1)
        }
        #expect(sharp.isEmpty, "sharpness: \(sharp.count) of the changes altered frames; first: \(sharp.prefix(4))")
    }

    @Test func aReRenderLaterInTheBreathChangesNoFrame() throws {
        let changed = try noopChanges("2-1-2", strength: 0.8, warmup: 0.3, upToBreathTime: nil, step: 41) { $0.restart(at: $1) }
        withKnownIssue("issue 39: a restart plans later phase starts' leads differently (up to full scale)") {
            #expect(changed.isEmpty, "\(changed.count) of the re-renders altered frames; first: \(changed.prefix(4))")
        }
    }
}
