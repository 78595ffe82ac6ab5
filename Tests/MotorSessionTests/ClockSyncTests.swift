// The timing part on its own: when CLOCK requests go out (dense while the estimate is young, then at the
// line's spacing), which replies count, and when the board's timebase is moved to the estimate.
// SPDX-License-Identifier: Apache-2.0

@testable import MotorSession
import MotorWire
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ClockSyncTests {
    /// Dense before the first frame and for `denseS` after it, then steady.
    @Test(arguments: [
        // (t s, session start s) -> interval ms; dense 20 ms for 3 s, steady 47 ms
        (0.0, 1.0, 20), (0.999, 1.0, 20), (1.0, 1.0, 20), (3.999, 1.0, 20), (4.0, 1.0, 47), (60.0, 1.0, 47),
        (10.0, 0.0, 47), (2.0, 0.0, 20),
    ])
    func denseThenSteady(t: Double, start: Double, ms: Int) {
        let schedule = SyncSchedule(denseMs: 20, denseS: 3, steadyMs: 47)
        #expect(schedule.intervalNs(at: UInt64(t * 1e9), sessionStartNs: UInt64(start * 1e9)) == UInt64(ms) * 1_000_000)
    }

    /// A loop that asks every millisecond for 6 s: a request at 0 and every 20 ms up to 3.98 s (the first
    /// frame at 1 s, 3 s dense after it), then at 4.00 s and every 50 ms: 200 + 40 requests.
    @Test func requestsFollowTheSchedule() {
        var timing = StreamTiming(rate: 250, tracker: ClockTracker(clockHz: 1_000_000),
                                  schedule: SyncSchedule(denseMs: 20, denseS: 3, steadyMs: 50))
        timing.sessionStartNs = 1_000_000_000
        var sent: [UInt64] = []
        for ms in 0..<6000 as Range<UInt64> {
            if timing.clockRequest(at: ms * 1_000_000) != nil { sent.append(ms) }
        }
        let expected = Array(stride(from: 0, through: 3980, by: 20)) + Array(stride(from: 4000, to: 6000, by: 50))
        #expect(sent == expected.map { UInt64($0) })
    }

    /// The estimate keeps its part of a tick: exchanges that put a 1 MHz board clock's named tick 0.4 µs
    /// after the middle of each exchange (each request sent 1 µs before, each reply back 0.2 µs after) give
    /// 191 000.6 at the newest reply; 0.3 µs before that reply is 191 000.3, tick 191 000 (rounded into the
    /// anchor first it was 191 001 - 0.3, tick 191 001).
    @Test func theEstimateKeepsItsPartOfATick() {
        var tracker = ClockTracker(clockHz: 1_000_000)
        for k in 0..<20 as Range<UInt64> {
            let tick = 1_000 + k * 10_000
            tracker.add(ClockSample(sentNs: tick * 1_000 - 1_000, receivedNs: tick * 1_000 + 200, tick: tick))
        }
        let e = tracker.estimate()!
        #expect(e.anchorNs == 191_000_200)
        #expect(abs(Double(e.anchorTick) + e.anchorFraction - 191_000.6) < 0.001, "\(e.anchorTick) + \(e.anchorFraction)")
        #expect(e.tick(atHostNs: 191_000_200 - 300) == 191_000)
        #expect(e.hostNs(atTick: 191_001) == 191_000_600)
    }

    /// Replies are matched by token: a reply to nothing outstanding (late, duplicated, from before a
    /// restart) is no sample.
    @Test func repliesMatchTheirRequests() {
        var sync = ClockSync(tracker: ClockTracker(clockHz: 1_000_000))
        #expect(sync.request(at: 0, intervalNs: 20) == 1000)
        #expect(sync.request(at: 10, intervalNs: 20) == nil)  // not due yet
        #expect(sync.request(at: 20, intervalNs: 20) == 1001)
        #expect(sync.nextDueNs == 40)
        let sample = sync.reply(token: 1001, tick: 555, at: 25)
        #expect(sample?.sentNs == 20 && sample?.receivedNs == 25 && sample?.tick == 555)
        #expect(sync.reply(token: 1001, tick: 556, at: 26) == nil)  // a duplicate
        #expect(sync.reply(token: 4242, tick: 1, at: 27) == nil)    // never asked
        #expect(sync.tracker.samples.count == 1)
        sync.restart(tracker: ClockTracker(clockHz: 1_000_000))
        #expect(sync.reply(token: 1000, tick: 9, at: 30) == nil)    // asked of the board before it restarted
        #expect(sync.tracker.samples.isEmpty)
        sync.dueNow(31)
        #expect(sync.request(at: 31, intervalNs: 20) == 1002)
    }

    /// A tracker fed exchanges with a board clock at `ppm` off a 1 MHz nominal, offset `offsetTicks`.
    static func timing(ppm: Double, offsetTicks: Double = 1_000_000, count: Int = 200) -> StreamTiming {
        var tracker = ClockTracker(clockHz: 1_000_000)
        for k in 0..<count {
            let sent = UInt64(k) * 20_000_000, received = sent + 2_000_000
            let tick = offsetTicks + Double(sent + 1_000_000) * 1e-3 * (1 + ppm / 1e6)
            tracker.add(ClockSample(sentNs: sent, receivedNs: received, tick: UInt64(tick.rounded())))
        }
        return StreamTiming(rate: 250, tracker: tracker, schedule: SyncSchedule(denseMs: 20, denseS: 3, steadyMs: 20))
    }

    /// The START of a stream puts its first frame at the estimated board tick of its intended time, with
    /// the estimated period; a timebase that agrees with the estimate is not moved.
    @Test func theStartFollowsTheEstimateAndStays() throws {
        var timing = Self.timing(ppm: 0)
        timing.sessionStartNs = 4_100_000_000
        let start = timing.start(first: 0, now: 4_000_000_000)
        #expect(abs(Double(start.anchorTick) - (1_000_000 + 4_100_000)) <= 2)  // 1 MHz from the offset
        #expect(abs(Double(start.periodQ32) / 4_294_967_296 - 4000) < 0.01)  // 4 ms at 1 MHz
        #expect(timing.retime(at: 4_200_000_000, wireBase: 0, total: 10_000, thresholdUs: 20) == nil)
        #expect(timing.starts.count == 1 && timing.retimes == 0)
    }

    /// A timebase that strays from the estimate by more than the threshold (here: the estimate learned a
    /// clock 1 % fast) is moved, anchored 100 ms ahead of what plays; not within 50 ms of the last START,
    /// not past the end of the breath.
    @Test(arguments: [
        // (t ms after the START, total frames) -> moved
        (100, 10_000, true), (49, 10_000, false), (50, 10_000, true), (100, 20, false),
    ])
    func aStrayingTimebaseIsMoved(afterMs: UInt64, total: Int, moved: Bool) {
        var timing = Self.timing(ppm: 10_000)
        timing.sessionStartNs = 4_100_000_000
        _ = timing.start(first: 0, now: 4_000_000_000)
        var stale = Self.timing(ppm: 0)  // the START as a slower estimate would have sent it
        stale.sessionStartNs = 4_100_000_000
        let old = stale.start(first: 0, now: 4_000_000_000)
        timing.retimed(old, wireBase: 0, at: 4_000_000_000)
        let t = 4_000_000_000 + afterMs * 1_000_000
        let start = timing.retime(at: t, wireBase: 0, total: total, thresholdUs: 20)
        #expect((start != nil) == moved)
        if let start {
            #expect(start.anchorIndex == UInt32(timing.playing(at: t, before: 0) + 25))
            #expect(abs(Double(start.periodQ32) / 4_294_967_296 - 4040) < 0.5)  // 4 ms at 1.01 MHz
        }
    }

    /// A period error alone: the timebase agrees with the estimate at the anchor (25 frames ahead: 10
    /// ticks off at 0.4 ticks a frame, under the 20 µs threshold) but not a second later (110 ticks): moved;
    /// 0.01 ticks a frame stays within the threshold a second later too.
    @Test(arguments: [(0.4, true), (0.01, false)])
    func aPeriodErrorAloneIsMoved(ticksPerFrame: Double, moved: Bool) {
        var timing = Self.timing(ppm: 0)
        timing.sessionStartNs = 4_100_000_000
        let start = timing.start(first: 0, now: 4_000_000_000)
        let off = Start(anchorIndex: 0, anchorTick: start.anchorTick,
                        periodQ32: start.periodQ32 + UInt64(ticksPerFrame * 4_294_967_296))
        timing.retimed(off, wireBase: 0, at: 4_000_000_000)
        let retime = timing.retime(at: 4_100_000_000, wireBase: 0, total: 10_000, thresholdUs: 20)
        #expect((retime != nil) == moved)
        #expect(retime.map { abs(Double($0.periodQ32) - Double(start.periodQ32)) < 4_294_967_296 * 0.01 } ?? true)
    }
}
