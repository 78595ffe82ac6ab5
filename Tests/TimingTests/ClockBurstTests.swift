// Steady CLOCK exchanges in pairs on a fast link (the second request goes at the first's reply, so the
// host wakes three times for two exchanges): the exchange rate, the pairs, and the schedule error, judged
// on the simulated board's true clock against the same sessions with one request at a time; on slow or
// known links every request keeps its time.
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ClockBurstTests {
    /// A link whose round trips (1-3 ms) take well under half the 20 ms spacing.
    static let fast = "latency=1ms,jitter=0.5ms,drift=500ppm"

    static func session(_ link: String, seed: UInt64, burst: Int, minutes: Double) throws -> (TimingResult, Player, SimWorld) {
        try ClockRuleSession.run(link, seed: seed, minutes: minutes) { $0.syncBurst = burst }
    }

    /// Past the dense start, pairs: every second request goes at the instant the first's reply came in,
    /// the exchanges a second stay those of one request every 20 ms (50), and every exchange bounds the
    /// board's true clock (the request reached it after it was sent, the reply left it before it came in).
    @Test func pairsKeepTheExchangeRateAndBoundTheTrueClock() throws {
        let (_, player, world) = try Self.session(Self.fast, seed: 2, burst: 2, minutes: 0.5)
        let s = ClockRuleSession.steady(player)
        print("seed 2: \(s.count) steady exchanges, \(s.perSecond)/s, \(s.followUps) sent on the reply before")
        #expect(abs(s.perSecond - 50) <= 3, "\(s.perSecond) exchanges a second")
        #expect(Double(s.followUps) >= 0.45 * Double(s.count), "\(s.followUps) of \(s.count) followed a reply at once")
        var outside: [String] = []
        for c in player.clockSamples {
            let arrived = world.clock.ticks(atHostNs: c.sentNs), left = world.clock.ticks(atHostNs: c.receivedNs)
            if c.tick + 1 < arrived || c.tick > left + 1 { outside.append("sent \(c.sentNs): tick \(c.tick), true \(arrived)...\(left)") }
        }
        #expect(outside.isEmpty, "\(outside.prefix(3))")
    }

    /// Where a reply takes half the spacing or more (the benchmark's 16 ± 8 ms link) and on a known adapter
    /// (CP2102: its requests are spread over the USB frame), every request keeps its time: the exchanges are
    /// those of one request at a time, to the nanosecond and the tick.
    @Test(arguments: ["latency=16ms,jitter=8ms,drift=500ppm", "cp2102,drift=500ppm"])
    func slowOrKnownLinksKeepEveryRequestsTime(link: String) throws {
        let pairs = try Self.session(link, seed: 1, burst: 2, minutes: 0.25).1.clockSamples
        let single = try Self.session(link, seed: 1, burst: 1, minutes: 0.25).1.clockSamples
        #expect(pairs.count == single.count && pairs.count > 500, "\(link): \(pairs.count) against \(single.count) exchanges")
        let moved = zip(pairs, single).filter { $0.sentNs != $1.sentNs || $0.tick != $1.tick }.count
        #expect(moved == 0, "\(link): \(moved) exchanges differ")
    }

    /// Seeds 1-4, 2 minutes on the fast link: the settled p99 schedule error (from 3 s on) in pairs within
    /// 1.2x that of one request every 20 ms (the median over the seeds), and the start unchanged (pairs begin
    /// after the dense start).
    @Test func pairsKeepTheSettledScheduleError() throws {
        let c = try SettledComparison(seeds: 1...4) { seed, pairs in
            try Self.session(Self.fast, seed: seed, burst: pairs ? 2 : 1, minutes: 2).0
        }
        print("settled p99, seeds 1-4: pairs \(c.a) (median \(c.medianA)), one at a time \(c.b) (median \(c.medianB))")
        #expect(c.startsDiffer.isEmpty, "\(c.startsDiffer)")
        #expect(c.medianA <= 1.2 * c.medianB, "settled p99 median: \(c.medianA) µs in pairs, \(c.medianB) µs one at a time")
    }
}
