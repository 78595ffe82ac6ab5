// The evidence part on its own: PLAYED blocks judged against the frames the host meant (played, lost,
// late, out of order, unreported, mismatched) and a steerable source found without a downcast.
// SPDX-License-Identifier: Apache-2.0

import Breath
@testable import MotorSession
import MotorWire
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct BoardEvidenceTests {
    /// 250 Hz on a 1 MHz board: half a period is 2000 ticks.
    static func played(first: UInt32 = 0, _ values: [UInt16], late: UInt16 = 0, maxLate: UInt32 = 0) -> Played {
        Played(firstIndex: first, count: UInt16(values.count), lateCount: late, maxLateTicks: maxLate,
               dutyCRC: referenceCRC(values), firstTick: 5_000)
    }

    static let expected: [UInt16] = (0..<10).map { UInt16(100 + $0) }

    @Test(arguments: [
        // (what the board played, late count, max late ticks) -> (lost, mismatches)
        (expected, 0, 0, 0, 0),
        (expected, 3, 2000, 0, 0),          // late by half a period: a retime's jitter, not lost
        (expected, 3, 2001, 3, 0),          // later: lost
        ([100, 101, 0, 0, 0, 105, 106, 107, 108, 109], 0, 0, 3, 1),  // an underrun run of 3
        ([100, 101, 102, 103, 104, 105, 106, 107, 108, 7], 0, 0, 10, 1),  // unexplained: the whole block
        ([100, 101, 0, 0, 0, 105, 106, 107, 108, 109], 4, 9000, 7, 1),   // both
    ] as [([UInt16], UInt16, UInt32, Int, Int)])
    func aBlockIsJudged(values: [UInt16], late: UInt16, maxLate: UInt32, lost: Int, mismatches: Int) {
        var e = BoardEvidence(clockHz: 1_000_000, rate: 250)
        e.played(Self.played(values, late: late, maxLate: maxLate), first: 0, count: 10, playedThrough: 0,
                 expected: Self.expected)
        #expect(e.framesPlayed == 10)
        #expect(e.playedLate == Int(late))
        #expect(e.framesLost == lost)
        #expect(e.dutyMismatches == mismatches)
        #expect(e.lateness.count == 1)
    }

    /// Blocks that start before the previous one ended are out of order; a gap is unreported.
    @Test(arguments: [(first: 10, through: 10, outOfOrder: 0, unreported: 0), (5, 10, 1, 0), (25, 10, 0, 15)])
    func orderAndGaps(first: Int, through: Int, outOfOrder: Int, unreported: Int) {
        var e = BoardEvidence(clockHz: 1_000_000, rate: 250)
        e.played(Self.played(first: UInt32(first), Self.expected), first: first, count: 10, playedThrough: through,
                 expected: Self.expected)
        #expect(e.outOfOrder == outOfOrder)
        #expect(e.unreported == unreported)
    }

    /// A LiveFrames is steerable as itself; a fixed pattern's frames are not steerable.
    @Test func onlyALiveBreathIsSteerable() throws {
        let live = LiveFrames(plan: LivePlan(pattern: try BreathPattern.parse("1-0-1"), options: BreathOptions()),
                              frameRate: 100, resolution: .u8)
        #expect(live.steerable === live)
        let fixed: FrameSource = FrameWindow(FrameRenderer(pattern: HapticPattern(events: []), duration: 1, frameRate: 100,
                                                           resolution: .u8))
        #expect(fixed.steerable == nil)
        let asSource: FrameSource = live
        #expect(asSource.steerable === live)
    }
}
