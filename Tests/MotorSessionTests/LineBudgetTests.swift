// The line budget on its own: the CLOCK spacing that keeps the host's steady traffic within its share of
// the line, computed here by hand from protocol.md's message sizes (a FRAMES header on the wire 14 bytes,
// a START 28, a CLOCK request 12), and the spacing a player schedules from it.
// SPDX-License-Identifier: Apache-2.0

@testable import MotorSession
import MotorWire
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LineBudgetPartTests {
    /// Each row: the line and the traffic, then the hand-computed interval (fastest 20 ms, slowest 50).
    @Test(arguments: [
        // 1000 B/s of frames + 5 x 14 B/s of headers + 2 x 28 B/s of STARTs = 1126 of 1382.4 B/s:
        // 256.4 B/s left, a 12-byte request every 46.8 ms.
        (115_200, 0.12, 1000, DutyFormat.u8, 200, 47),
        // 500 Hz i16 is the same 1000 B/s.
        (115_200, 0.12, 500, .i16, 100, 47),
        // 376 B/s of 1382.4: every 11.9 ms, which is faster than the fastest: 20.
        (115_200, 0.12, 250, .u8, 50, 20),
        // 57600 baud: 691.2 - 376 = 315.2 B/s left: every 38.07 ms -> 39.
        (57_600, 0.12, 250, .u8, 50, 39),
        // 1000 + 10 x 14 + 56 = 1196: 186.4 left, every 64.4 ms: slower than the slowest, so the fastest
        // (the clock is not starved for a budget out of reach).
        (115_200, 0.12, 1000, .u8, 100, 20),
        // i16 at 1 kHz: the frames alone exceed the share.
        (115_200, 0.12, 1000, .i16, 117, 20),
        // A larger share: 2764.8 - 1126 = 1638.8 left: every 7.3 ms -> 20.
        (115_200, 0.24, 1000, .u8, 200, 20),
    ])
    func clockInterval(baud: Int, share: Double, rate: Int, format: DutyFormat, batch: Int, ms: Int) {
        let budget = LineBudget(baud: baud, share: share, frameRate: rate, format: format, framesPerMessage: batch)
        #expect(budget.clockIntervalMs(fastestMs: 20, slowestMs: 50) == ms)
    }

    /// With a wider range the interval that row 5 could not have is used.
    @Test func aWiderRangeTakesTheSlowerInterval() {
        let budget = LineBudget(baud: 115_200, share: 0.12, frameRate: 1000, format: .u8, framesPerMessage: 100)
        #expect(budget.clockIntervalMs(fastestMs: 20, slowestMs: 100) == 65)
        #expect(budget.clockIntervalMs(fastestMs: 70, slowestMs: 100) == 70)
    }

    /// The player's steady spacing comes from its clean-line message size (a lossy line does not change it).
    @Test(arguments: [(1000, DutyFormat.u8, 1024, 47), (250, .u8, 1024, 20), (1000, .u8, 512, 20)])
    func steadySpacing(rate: Int, format: DutyFormat, capacity: Int, ms: Int) {
        #expect(LinePolicyTests.policy(rate: rate, format: format, capacity: capacity).steadySyncMs == ms)
        #expect(LinePolicyTests.policy(rate: rate, format: format, capacity: capacity, lossy: true).steadySyncMs == ms)
    }
}
