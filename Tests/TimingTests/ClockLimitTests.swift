// The start error against the limit of the link (ClockLimit): first the bound itself against the
// statistics it must obey, then motorbreath's start error over seeds 1...20 against the bound for the time
// it had. A clock estimate that wastes its exchanges fails here even when it still meets a loose goal.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ClockLimitTests {
    /// With requests 20 ms apart on a 16 +- 8 ms link, no request waits for the one before, so the n trips
    /// each way are independent uniform draws of width W = 16 ms. The fastest of n is then about
    /// exponential with mean W / (n + 1), and half the difference of two such is on average W / (2 (n + 1)).
    @Test func theBoundFollowsTheStatisticsOfTheFastestTrips() {
        let seconds = 4.0, spacingMs = 20.0
        let errors = ClockLimit.errorsUs(latencyNs: 16_000_000, jitterNs: 8_000_000, seconds: seconds,
                                         spacingMs: spacingMs, trials: 4000, seed: 7)
        let n = Double(Int(seconds * 1000 / spacingMs) - 2)  // the last requests' replies are not back in time
        let expected = 16_000 / (2 * (n + 1))
        let mean = errors.reduce(0, +) / Double(errors.count)
        print("bound: mean \(mean) µs, expected about \(expected) µs for \(n) independent exchanges")
        #expect(abs(mean - expected) / expected < 0.1, "mean \(mean) µs, expected \(expected) µs")
        // And more time helps: the p90 falls roughly as 1/time.
        func p90(_ s: Double) -> Double {
            ClockLimit.quantile(ClockLimit.errorsUs(latencyNs: 16_000_000, jitterNs: 8_000_000, seconds: s,
                                                    spacingMs: 10, trials: 2000, seed: 3), 0.9)
        }
        let short = p90(0.5), long = p90(3)
        #expect(short > 3 * long, "p90 \(short) µs after 0.5 s, \(long) µs after 3 s")
    }

    /// motorbreath with its default prepare and 300 ms lead, seeds 1...20 on the benchmark's link: its start
    /// error's p90 is within 1.5 times the bound's for the same time (it was 1.03 times when written: 561
    /// against 543 µs), although the bound knows the board's rate and has the wire to itself.
    @Test func theStartErrorIsNearTheLimitOfTheLink() throws {
        let link = try LinkImpairments.parse("latency=16ms,jitter=8ms,drift=500ppm")
        var starts: [Double] = [], spans: [Double] = []
        for seed in UInt64(1)...20 {
            var s = TimingScenario(impairments: link)
            s.minutes = 0.05
            s.seed = seed
            let (r, _, _) = try SimulatedSession.run(s, recordPlays: false)
            starts.append(r.startErrorUs)
            spans.append(r.syncBeforeStartMs)
        }
        let span = ClockLimit.quantile(spans, 0.5)
        let bound = ClockLimit.quantile(ClockLimit.errorsUs(latencyNs: link.latencyNs, jitterNs: link.jitterNs,
                                                            seconds: span / 1000, spacingMs: 10, trials: 2000, seed: 1), 0.9)
        let p90 = ClockLimit.quantile(starts, 0.9)
        print("start error p90 \(p90) µs over seeds 1...20; the limit for \(span) ms of exchanges: p90 \(bound) µs")
        #expect(span > 300 && span < 1000, "clock exchanges before the first frame: \(span) ms")
        #expect(p90 < 1.5 * bound, "start error p90 \(p90) µs, the link allows \(bound) µs")
    }
}
