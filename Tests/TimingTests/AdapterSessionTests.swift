// motorbreath's clock estimate on an FTDI adapter link (16 ms latency timer on the board-to-host bytes
// only), judged on the simulated board's true clock against the bounds for the same link.
// SPDX-License-Identifier: Apache-2.0

import Breath
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct AdapterSessionTests {
    /// Three 1-minute sessions on `ftdi` (the session told the adapter through its LinkProfile, as a real
    /// port tells it): the median start error within 1.25x the known-direction start bound's p90, and the
    /// median p99 schedule error within 2x the session bound's median p99 (SessionLimit, rate unknown,
    /// 1 minute). Assuming symmetric trips instead, the p99 was 1540-1666 µs, about 4x the bound.
    @Test func ftdiSessionsStayNearTheBounds() throws {
        let model = try #require(LinkModel.named("ftdi"))
        var starts: [Double] = [], p99s: [Double] = []
        for seed: UInt64 in 1...3 {
            let r = try ClockRuleSession.run("ftdi,drift=500ppm", seed: seed, minutes: 1) { _ in }.0
            starts.append(r.startErrorUs)
            p99s.append(r.scheduleErrorUs.p99)
            print("ftdi seed \(seed): start error \(r.startErrorUs) µs, p99 schedule error \(r.scheduleErrorUs.p99) µs")
        }
        let startBound = ClockLimit.quantile(AdapterLimit.errorsUs(model: model, estimator: .knowsEachDirection, seconds: 0.5,
                                                                   spacingMs: 10, trials: 2000, seed: 1), 0.9)
        let sessionBound = ClockLimit.quantile(SessionLimit.p99Us(model: model, minutes: 1, trials: 3, seed: 1), 0.5)
        let start = ClockLimit.quantile(starts, 0.5), p99 = ClockLimit.quantile(p99s, 0.5)
        print("ftdi: start median \(start) µs (bound p90 \(startBound)), p99 median \(p99) µs (session bound \(sessionBound))")
        #expect(start <= 1.25 * startBound, "seeds 1-3: start error median \(start) µs, bound p90 \(startBound) µs")
        #expect(p99 <= 2 * sessionBound, "seeds 1-3: p99 median \(p99) µs, session bound \(sessionBound) µs")
    }

    /// Three 2-minute sessions on `ch340`, where the exchanges pin the clock to a few µs: the median p99
    /// schedule error within the session bound's median p99 plus 5 µs (a few board ticks of 1 µs). With the
    /// re-timing threshold fixed at 20 µs a schedule 14-15 µs off stayed for the whole session on seeds 1-2.
    @Test func ch340SessionsAreRetimedToTheEstimatesPrecision() throws {
        let model = try #require(LinkModel.named("ch340"))
        var p99s: [Double] = []
        for seed: UInt64 in 1...3 {
            let r = try ClockRuleSession.run("ch340,drift=500ppm", seed: seed, minutes: 2) { _ in }.0
            p99s.append(r.scheduleErrorUs.p99)
        }
        let bound = ClockLimit.quantile(SessionLimit.p99Us(model: model, minutes: 2, trials: 3, seed: 1), 0.5)
        let p99 = ClockLimit.quantile(p99s, 0.5)
        print("ch340 seeds 1-3, 2 minutes: p99 \(p99s) µs, median \(p99) (session bound \(bound))")
        #expect(p99 <= bound + 5, "seeds 1-3: p99 median \(p99) µs, session bound \(bound) µs")
    }

    /// Issue 28's start goal on `ch340`, as `benchmark --seeds 20` judges it: over seeds 1-20 (3-second
    /// sessions: the start is the same as a 10-minute one's) the start error's p90, on the board's true
    /// clock, within 1.25x the known-direction bound's p90 for the sessions' median time of exchanges before
    /// the first frame. With the lead re-timed only past the estimate's uncertainty (the rule of
    /// `retimeThresholdUs` once a frame is felt) the p90 was 34 µs against 31 (1.4x); now 26.
    @Test func ch340StartIsWithinItsBound() throws {
        let model = try #require(LinkModel.named("ch340"))
        var starts: [Double] = [], syncs: [Double] = []
        for seed: UInt64 in 1...20 {
            let r = try ClockRuleSession.run("ch340,drift=500ppm", seed: seed, minutes: 0.05) { _ in }.0
            starts.append(r.startErrorUs)
            syncs.append(r.syncBeforeStartMs)
        }
        let syncS = ClockLimit.quantile(syncs, 0.5) / 1000
        let bound = ClockLimit.quantile(AdapterLimit.errorsUs(model: model, estimator: .knowsEachDirection, seconds: syncS,
                                                              spacingMs: 10, trials: 2000, seed: 1), 0.9)
        let p90 = ClockLimit.quantile(starts, 0.9)
        print("ch340 seeds 1-20: start errors \(starts.map { Int($0.rounded()) }) µs, p90 \(p90) (bound p90 \(bound) for \(syncS) s)")
        #expect(p90 <= 1.25 * bound, "start error p90 \(p90) µs, bound p90 \(bound) µs")
    }

    /// The lead is re-timed to a better estimate, never to a less certain one: three boards (clocks -5 %, 0,
    /// +3 %) in step on `ch340`, seeds 1-3, the ensemble's 2 s lead, every board's first frame within 10 µs of
    /// the common instant on its true clock (worst 5.6 µs). Re-timed at two ticks whatever the estimate's
    /// uncertainty, the exact board of seed 2 followed an estimate that had grown less certain as the
    /// prefill filled the line (5 -> 16 µs) and started 15.4 µs off (0.4 µs now).
    @Test func ensembleLeadKeepsTheMoreCertainEstimate() throws {
        var worst = 0.0
        for seed: UInt64 in 1...3 {
            let boards = [("slow", -50_000), ("exact", 0), ("fast", 30_000)].enumerated().map { k, b in
                EnsembleBoard(name: b.0, impairments: try! LinkImpairments.parse("ch340,drift=\(b.1)ppm"), seed: seed * 10 + UInt64(k))
            }
            let r = try EnsembleSession.run(boards, minutes: 0.1)
            let starts = r.boards.map(\.startErrorUs)
            print("ch340 in step, seed \(seed): start errors \(starts) µs")
            worst = max(worst, starts.max() ?? .infinity)
        }
        #expect(worst <= 10, "worst start error \(worst) µs")
    }
}
