// Inputs a board's replies or a client's commands can make degenerate, fed straight to the parts that
// once trapped on them (issue 39): the clock tracker on exchanges with a round trip longer than its window,
// duplicated, out of order, at one instant, at the top of the tick range, with NaN minima; the schedule's
// conversions at the ends of their ranges.
// Each case must answer without a trap, and sanely.
// SPDX-License-Identifier: Apache-2.0

@testable import MotorSession
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct DegenerateClockTests {
    /// Exchanges with a 1 MHz board clock (ticks = ns / 1000 + 5000), built by hand.
    static func sample(sent: UInt64, received: UInt64, tick: UInt64? = nil, minimum: Double = 0) -> ClockSample {
        ClockSample(sentNs: sent, receivedNs: received, tick: tick ?? ((sent + received) / 2 / 1000 + 5000),
                    minToBoardNs: minimum, minToHostNs: minimum)
    }

    static let ms: UInt64 = 1_000_000

    /// (name, samples, whether the estimate is sane: the tick at the newest reply within `slackTicks` of the
    /// board's true tick, ns / 1000 + 5000).
    static let cases: [(String, [ClockSample], UInt64?)] = [
        // The crash of issue 39: one reply read 1.5 s after its request (a host stalled by its clients); the
        // offset window (1 s) then held no exchange, and the envelopes' middle was NaN.
        ("one slow reply", [sample(sent: 0, received: 1500 * ms)], 800_000),
        ("a slow reply after fast ones",
         (0..<40).map { sample(sent: UInt64($0) * 20 * ms, received: UInt64($0) * 20 * ms + ms) }
            + [sample(sent: 800 * ms, received: 3800 * ms)], 2_000),
        ("a reply after an hour", [sample(sent: 0, received: 3_600_000 * ms)], nil),
        ("the same exchange 30 times", Array(repeating: sample(sent: 10 * ms, received: 11 * ms), count: 30), 1_000),
        ("30 exchanges at one instant, different ticks",
         (0..<30).map { sample(sent: 10 * ms, received: 10 * ms, tick: 15_000 + UInt64($0)) }, 100),
        ("received before sent", [sample(sent: 20 * ms, received: 10 * ms, tick: 20_000)], 100_000),
        ("out of order",
         (0..<40).reversed().map { sample(sent: UInt64($0) * 20 * ms, received: UInt64($0) * 20 * ms + ms) }, nil),
        ("ticks going back",
         (0..<40).map { sample(sent: UInt64($0) * 20 * ms, received: UInt64($0) * 20 * ms + ms, tick: 1_000_000 - UInt64($0) * 1000) }, nil),
        ("a tick past Int64.max", [sample(sent: 0, received: ms, tick: UInt64.max - 3)], nil),
        ("a tick of 0 at a late host time", [sample(sent: 3_600_000 * ms, received: 3_600_001 * ms, tick: 0)], nil),
        ("NaN minima", (0..<30).map { sample(sent: UInt64($0) * 20 * ms, received: UInt64($0) * 20 * ms + ms, minimum: .nan) }, 1_000),
        ("infinite minima", (0..<30).map { sample(sent: UInt64($0) * 20 * ms, received: UInt64($0) * 20 * ms + ms, minimum: .infinity) }, 1_000),
        ("host times at the top of the range",
         [sample(sent: UInt64.max - 2 * ms, received: UInt64.max - ms, tick: 1_000)], nil),
    ]

    @Test(arguments: 0..<DegenerateClockTests.cases.count)
    func theTrackerAnswersEveryExchangeSanely(index: Int) throws {
        let (name, samples, slack) = Self.cases[index]
        var tracker = ClockTracker(clockHz: 1_000_000)
        for s in samples { tracker.add(s) }
        let e = try #require(tracker.estimate(), "\(name)")
        #expect(e.ticksPerNs.isFinite && e.ticksPerNs > 0, "\(name): \(e.ticksPerNs)")
        #expect(e.anchorFraction.isFinite && e.anchorFraction >= 0 && e.anchorFraction < 1, "\(name): \(e.anchorFraction)")
        _ = tracker.uncertaintyUs()
        let newest = samples.last!
        // Converting either way at the ends of the ranges never traps.
        for ns in [0, newest.receivedNs, UInt64.max] { _ = e.tick(atHostNs: ns) }
        for tick in [0, newest.tick, UInt64.max] { _ = e.hostNs(atTick: tick) }
        if let slack {
            let truth = Int64(newest.receivedNs / 1000 + 5000)
            let got = Int64(e.tick(atHostNs: newest.receivedNs))
            #expect(abs(got - truth) <= Int64(slack), "\(name): tick \(got), the board's \(truth)")
        }
    }

    /// A reply to a request that went out a second and a half before, through the whole player's path: the
    /// sync matches it, the tracker takes it, the timing re-times from it.
    @Test func aReplyLaterThanTheWindowRetimesWithoutATrap() throws {
        var timing = StreamTiming(rate: 250, tracker: ClockTracker(clockHz: 1_000_000),
                                  schedule: SyncSchedule(denseMs: 20, denseS: 3, steadyMs: 50))
        let request = timing.clockRequest(at: 0)
        let token = try #require(request)
        _ = timing.sync.reply(token: token, tick: 5_000, at: 1_500 * Self.ms)
        _ = timing.start(first: 0, now: 1_500 * Self.ms)
        _ = timing.retime(at: 1_600 * Self.ms, wireBase: 0, total: 10_000, thresholdUs: 100)
    }

    /// An estimate no exchange could give (a rate of 0, infinite, NaN) still converts without a trap.
    @Test(arguments: [0.0, .infinity, .nan, -1e-3, 1e300])
    func aDegenerateRateConvertsWithoutATrap(rate: Double) {
        let e = ClockEstimate(anchorNs: 1_000, anchorTick: UInt64.max / 2, anchorFraction: 0.5, ticksPerNs: rate, nominalTicksPerNs: 1e-3)
        for ns in [0, 1_000, UInt64.max] { _ = e.tick(atHostNs: ns) }
        for tick in [0, UInt64.max / 2, UInt64.max] { _ = e.hostNs(atTick: tick) }
        let timing = StreamTiming(rate: 250, tracker: ClockTracker(clockHz: 1_000_000), schedule: SyncSchedule(denseMs: 20, denseS: 3, steadyMs: 50))
        _ = timing.period(e)
    }

    /// The schedule's frame <-> host time conversions at the ends of the Int and UInt64 ranges.
    @Test(arguments: [Int.min, -1, 0, 1, 250 * 86_400, Int.max / 1_000, Int.max])
    func theScheduleConvertsAnyFrame(frame: Int) {
        var timing = StreamTiming(rate: 1000, tracker: ClockTracker(clockHz: 1_000_000), schedule: SyncSchedule(denseMs: 20, denseS: 3, steadyMs: 50))
        timing.sessionStartNs = 5_000_000_000
        let ns = timing.intendedNs(frame)
        #expect(frame > 0 || ns == timing.sessionStartNs)
        #expect(frame != 1 || ns == 5_001_000_000)
        _ = timing.playing(at: ns, before: 0)
        _ = timing.playing(at: .max, before: 0)
    }
}
