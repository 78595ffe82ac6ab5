// The lines of `benchmark --seeds` that put motorbreath's figures beside what the link allows at best
// (ClockLimit, AdapterLimit, SessionLimit) and beside the live-change goal of issue 28.
// SPDX-License-Identifier: Apache-2.0

import SimBoard

extension Benchmark {
    /// What the start error could be at best on this link (ClockLimit): the ideal estimator given the same
    /// time, and the time it would need for a p90 of 100 µs.
    func limitLines(syncMs: Double) -> [String] {
        let l = impairments
        func bound(_ s: Double) -> (p50: Double, p90: Double) {
            let e = ClockLimit.errorsUs(latencyNs: l.latencyNs, jitterNs: l.jitterNs, seconds: s, spacingMs: 10, trials: 2000, seed: 1)
            return (ClockLimit.quantile(e, 0.5), ClockLimit.quantile(e, 0.9))
        }
        let same = bound(syncMs / 1000)
        let needed = stride(from: 0.5, through: 10, by: 0.5).first { bound($0).p90 <= 100 }
        return [
            "- the limit of this link (ClockLimit: an ideal estimator with CLOCK exchanges every 10 ms for the same \(fixed(syncMs, 0)) ms, the board's rate known, nothing else on the wire): start error p50 \(fixed(same.p50, 0)) µs, p90 \(fixed(same.p90, 0)) µs; a p90 of 100 µs would need \(needed.map { fixed($0, 1) + " s" } ?? "more than 10 s") of exchanges before the first frame",
        ]
    }

    /// The same for an adapter model (AdapterLimit): the estimator that knows each direction's minimum delay,
    /// and the one that assumes symmetric trips; not computed when latency or jitter is added on top.
    func adapterLimitLines(_ model: LinkModel, syncMs: Double) -> [String] {
        guard impairments.latencyNs == 0, impairments.jitterNs == 0 else {
            return ["- the limit of this link: not computed (AdapterLimit models the adapter alone, not latency or jitter added to it)"]
        }
        func bound(_ e: AdapterLimit.Estimator) -> (p50: Double, p90: Double) {
            let x = AdapterLimit.errorsUs(model: model, estimator: e, seconds: syncMs / 1000, spacingMs: 10, trials: 2000, seed: 1)
            return (ClockLimit.quantile(x, 0.5), ClockLimit.quantile(x, 0.9))
        }
        let known = bound(.knowsEachDirection), symmetric = bound(.assumesSymmetry)
        let minima = AdapterLimit.Mechanics(model).minimaNs
        return [
            "- the limit of this link (AdapterLimit: ClockLimit's fastest-trip estimator over the \(model.summary) model, CLOCK exchanges every 10 ms for the same \(fixed(syncMs, 0)) ms, the board's rate known, nothing else on the wire): knowing each direction's minimum delay, start error p50 \(fixed(known.p50, 0)) µs, p90 \(fixed(known.p90, 0)) µs; assuming symmetric trips (off by half the difference of the minima, \(fixed(abs(minima.forward - minima.backward) / 2000, 0)) µs, which round trips cannot show), p50 \(fixed(symmetric.p50, 0)) µs, p90 \(fixed(symmetric.p90, 0)) µs",
        ]
    }

    /// The p99 bound over the whole session (SessionLimit: the ideal estimator, rate unknown, re-estimating
    /// as exchanges accumulate), one trial per seed, beside motorbreath's median p99; and motorbreath's start
    /// error p90 against the known-direction start bound (the goals: <= 1.5x and <= 1.25x).
    func sessionLimitLines(_ model: LinkModel, seeds: Int, syncMs: Double, startP90: Double, p99Median: Double) -> [String] {
        guard impairments.latencyNs == 0, impairments.jitterNs == 0 else { return [] }
        let q = ClockLimit.quantile
        let p99s = SessionLimit.p99Us(model: model, minutes: minutes, trials: seeds, seed: 1)
        let bound = q(p99s, 0.5)
        let start = AdapterLimit.errorsUs(model: model, estimator: .knowsEachDirection, seconds: syncMs / 1000, spacingMs: 10, trials: 2000, seed: 1)
        let startBound = q(start, 0.9)
        return [
            "- the limit over the whole session (SessionLimit: an ideal estimator re-estimating from every CLOCK exchange so far, 10 ms then 20 ms apart, spread over the adapter's hold, the rate unknown, judged every 20 ms for \(fixed(minutes, minutes < 1 ? 1 : 0)) min, \(seeds) trials): p99 schedule error median \(fixed(bound, 0)) µs (\(fixed(q(p99s, 0), 0))...\(fixed(q(p99s, 1), 0))); motorbreath's median p99 is \(ratio(p99Median / max(bound, 1)))x it (goal <= 1.5x)",
            "- motorbreath's start error p90 against the known-direction bound for the same \(fixed(syncMs, 0)) ms of exchanges (p90 \(fixed(startBound, 0)) µs): \(ratio(startP90 / max(startBound, 1)))x (goal <= 1.25x)",
        ]
    }

    /// The live changes over every seed: to the motor on the board's true clock, their messages at the board,
    /// and the goal of issue 28 (the change's own message p99 + one frame + 1 ms).
    func liveLines(_ live: [ControlLatencyResult]) -> [String] {
        guard !live.isEmpty else { return [] }
        let q = ClockLimit.quantile
        let p50s = live.map(\.trueMs.p50), p99s = live.map(\.trueMs.p99), messages = live.map(\.messageMs.p99)
        let frameMs = 1000 / Double(frameRate)
        let margins = live.map { $0.trueMs.p99 - ($0.messageMs.p99 + frameMs + 1) }
        return [
            "- live change to the motor (\(latencyChanges) strength, pause and resume changes a seed, as `motorbreath latency` makes them, on the board's true clock): p50 median \(fixed(q(p50s, 0.5), 1)) ms, p99 median \(fixed(q(p99s, 0.5), 1)) ms, worst seed \(fixed(q(p99s, 1), 1)) ms; its message at the board p99 median \(fixed(q(messages, 0.5), 1)) ms; p99 - (message p99 + one frame + 1 ms), worst seed \(fixed(q(margins, 1), 1)) ms (goal <= 0); not from the board's next frame \(live.map(\.notFromBoardsNext).reduce(0, +)), frames replaced too late \(live.map(\.replacedTooLate).reduce(0, +)), wrong duties \(live.map(\.wrongDuties).reduce(0, +))",
        ]
    }
}
