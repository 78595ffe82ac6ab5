// Two ways of running the same sessions, compared on what the simulated board's true clock says once the
// clock estimate has settled: the settled p99 schedule error per seed and its median, and whether the start
// (which both ways must share) stayed the same. ClockBurstTests and FastLinkSyncTests judge their rules so.
// SPDX-License-Identifier: Apache-2.0

import Testing
import TimingBench

/// The settled p99 schedule errors (µs) of sessions run two ways (`a` and `b`) over the same seeds.
struct SettledComparison {
    var a: [Double] = []
    var b: [Double] = []
    /// Seeds whose start error differed between the two ways, described.
    var startsDiffer: [String] = []

    var medianA: Double { ClockLimit.quantile(a, 0.5) }
    var medianB: Double { ClockLimit.quantile(b, 0.5) }

    /// Runs `session(seed, true)` and `session(seed, false)` for every seed.
    init(seeds: ClosedRange<UInt64>, _ session: (UInt64, Bool) throws -> TimingResult) rethrows {
        for seed in seeds {
            let x = try session(seed, true), y = try session(seed, false)
            a.append(x.settledScheduleErrorUs.p99)
            b.append(y.settledScheduleErrorUs.p99)
            if x.startErrorUs != y.startErrorUs { startsDiffer.append("seed \(seed): start \(x.startErrorUs) against \(y.startErrorUs) µs") }
        }
    }
}
