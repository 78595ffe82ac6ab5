// Sparser CLOCK exchanges on a fast, steady link the session does not know (a pseudo-terminal, a sim-board):
// once steady, one request every 45 ms instead of a pair every 40, judged on the simulated board's true
// clock against the same sessions with the rule off; links that are slower or known keep their exchanges.
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct FastLinkSyncTests {
    /// Round trips of 0.2-1 ms, as a pseudo-terminal to a sim-board process on this machine (0.03-0.7 ms).
    static let fast = "latency=0.3ms,jitter=0.2ms,drift=500ppm"

    static func session(_ link: String, seed: UInt64, fastMs: Int, minutes: Double) throws -> (TimingResult, Player) {
        let (result, player, _) = try ClockRuleSession.run(link, seed: seed, minutes: minutes) {
            $0.fastLinkSyncMs = fastMs
            $0.holdClockRequests = false  // the rule for a board that does not hold requests (HeldClockSessionTests)
        }
        return (result, player)
    }

    /// One request every 45 ms (22 a second, none sent at a reply), where the rule off gives pairs, 50 a
    /// second; every request is then the keep-alive too (the host writes at least every 50 ms).
    @Test func aFastLinkExchangesEvery45Ms() throws {
        let sparse = ClockRuleSession.steady(try Self.session(Self.fast, seed: 3, fastMs: 45, minutes: 0.5).1)
        let off = ClockRuleSession.steady(try Self.session(Self.fast, seed: 3, fastMs: 0, minutes: 0.5).1)
        print("fast link, seed 3: \(sparse.perSecond)/s (\(sparse.followUps) at a reply); rule off \(off.perSecond)/s (\(off.followUps) at a reply)")
        #expect(abs(sparse.perSecond - 1000.0 / 45) <= 1, "\(sparse.perSecond) exchanges a second")
        #expect(sparse.followUps == 0)
        #expect(abs(off.perSecond - 50) <= 3 && off.followUps > 100, "rule off: \(off)")
    }

    /// Seeds 1-4, 2 minutes: the settled p99 schedule error (true clock) with the sparser exchanges within
    /// 1.25x that of the rule off (the median over the seeds; measured equal without wander, 18 µs), and the
    /// start unchanged (the rule begins after the dense start).
    @Test func sparserExchangesKeepTheScheduleError() throws {
        let c = try SettledComparison(seeds: 1...4) { seed, sparse in
            try Self.session(Self.fast, seed: seed, fastMs: sparse ? 45 : 0, minutes: 2).0
        }
        print("settled p99, seeds 1-4: sparse \(c.a) (median \(c.medianA)), rule off \(c.b) (median \(c.medianB))")
        #expect(c.startsDiffer.isEmpty, "\(c.startsDiffer)")
        #expect(c.medianA <= 1.25 * c.medianB, "settled p99 median: \(c.medianA) µs sparse, \(c.medianB) µs rule off")
    }

    /// Round trips of 1-3 ms (slower than the rule's 2 ms), the benchmark's 16 ± 8 ms link and a known adapter
    /// (CP2102, whose requests are spread over its USB frame): the exchanges are those of the rule off, to the
    /// nanosecond and the tick.
    @Test(arguments: ["latency=1ms,jitter=0.5ms,drift=500ppm", "latency=16ms,jitter=8ms,drift=500ppm", "cp2102,drift=500ppm"])
    func slowerOrKnownLinksKeepTheirExchanges(link: String) throws {
        let on = try Self.session(link, seed: 1, fastMs: 45, minutes: 0.25).1.clockSamples
        let off = try Self.session(link, seed: 1, fastMs: 0, minutes: 0.25).1.clockSamples
        #expect(on.count == off.count && on.count > 500, "\(link): \(on.count) against \(off.count) exchanges")
        #expect(zip(on, off).filter { $0.sentNs != $1.sentNs || $0.tick != $1.tick }.isEmpty, "\(link)")
    }
}
