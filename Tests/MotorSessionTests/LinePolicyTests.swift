// The line part on its own: when a line counts as lossy, the repair guard and retransmission timeout it
// calls for, how many copies a repair gets, message sizes and how much of the board's buffer to fill.
// SPDX-License-Identifier: Apache-2.0

@testable import MotorSession
import MotorWire
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LinePolicyTests {
    static func policy(rate: Int = 250, format: DutyFormat = .u8, capacity: Int = 1024, minFrames: Int = 32,
                       lossy: Bool = false) -> LinePolicy {
        var o = SessionOptions()
        o.frameRate = rate
        o.minFramesPerMessage = minFrames
        var p = LinePolicy(options: o, capacity: capacity, format: format)
        if lossy { p.note(errors: 1, now: 1_000_000_000) }
        return p
    }

    /// The guard against repairing the same hole twice: a round trip and a half plus 20 ms, at least 50 ms,
    /// on a clean line; one round trip plus 10 ms, at least 30 ms, on a lossy one.
    @Test(arguments: [
        (false, 0 as UInt64, 50_000_000 as UInt64),
        (false, 20_000_000, 50_000_000),
        (false, 21_000_000, 51_500_000),
        (false, 40_000_000, 80_000_000),
        (true, 0, 30_000_000),
        (true, 20_000_000, 30_000_000),
        (true, 40_000_000, 50_000_000),
    ])
    func repairGuard(lossy: Bool, minRTTNs: UInt64, guardNs: UInt64) {
        let p = Self.policy(lossy: lossy)
        #expect(p.lossy == lossy)
        #expect(p.repairGuardNs(minRTTNs: minRTTNs) == guardNs)
        // The retransmission timeout: the configured one (150 ms) on a clean line, the guard on a lossy one.
        #expect(p.retransmitTimeoutNs(minRTTNs: minRTTNs) == (lossy ? guardNs : 150_000_000))
        #expect(p.repairCopies == (lossy ? 2 : 1))
    }

    /// Lossy for 5 s after the error count last rose; a count that does not rise changes nothing.
    @Test(arguments: [
        // (errors at each time in s) -> lossy after each
        ([(0, 0.0)], [false]),
        ([(0, 0.0), (1, 1.0), (1, 5.9), (1, 6.0)], [false, true, true, false]),
        ([(2, 1.0), (3, 4.0), (3, 8.9), (3, 9.0)], [true, true, true, false]),
        ([(2, 1.0), (2, 3.0), (2, 6.5)], [true, true, false]),
    ] as [([(Int, Double)], [Bool])])
    func lossyLately(readings: [(Int, Double)], lossy: [Bool]) {
        var p = Self.policy()
        var seen: [Bool] = []
        for (errors, s) in readings {
            p.note(errors: errors, now: UInt64(s * 1e9))
            seen.append(p.lossy)
        }
        #expect(seen == lossy)
    }

    /// Frames per message: 200 ms of frames within a quarter of the buffer and the format's maximum, at
    /// least `minFramesPerMessage`; half of that minimum on a lossy line. Frames kept buffered: a second's
    /// worth within the buffer less 8; the whole buffer less 8 on a lossy line.
    @Test(arguments: [
        // (rate, format, capacity, lossy) -> (framesPerMessage, targetFrames)
        (250, DutyFormat.u8, 1024, false, 50, 250),
        (1000, .u8, 1024, false, 200, 1000),
        (2000, .u8, 2048, false, 234, 2000),   // the u8 maximum per message
        (1000, .i16, 2048, false, 117, 1000),  // the i16 maximum
        (1000, .u8, 512, false, 128, 504),     // the AVR board's buffer
        (100, .u8, 1024, false, 32, 100),      // at least minFramesPerMessage
        (250, .u8, 1024, true, 16, 1016),
        (1000, .i16, 2048, true, 16, 2040),
        (250, .u8, 40, true, 5, 32),           // a tiny buffer: a quarter of it, halved
    ])
    func messageSizesAndTarget(rate: Int, format: DutyFormat, capacity: Int, lossy: Bool, perMessage: Int, target: Int) {
        let p = Self.policy(rate: rate, format: format, capacity: capacity, lossy: lossy)
        #expect(p.framesPerMessage == perMessage)
        #expect(p.targetFrames == target)
    }

    /// A re-prepared board with a smaller buffer changes the sizes at once.
    @Test func configureTakesTheNewBoard() {
        var p = Self.policy(rate: 1000, capacity: 1024)
        #expect(p.framesPerMessage == 200)
        p.configure(capacity: 512, format: .u8)
        #expect(p.framesPerMessage == 128)
        #expect(p.targetFrames == 504)
    }
}
