// The bound with the board's rate unknown (RateUnknownLimit) against what it must obey: hand-solved cases,
// never better than the same exchanges with the rate known, and better with more time.
// SPDX-License-Identifier: Apache-2.0

import Breath
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct RateUnknownLimitTests {
    /// Bounds 10 above and 2 below the truth at host times 0 and 100: the lines between them reach 10 and -2
    /// at 100, and 22 and -14 at 200 (extrapolated twice as far); the middle is 4 ns off either way.
    @Test func handSolvedCases() {
        let below: [(x: Double, y: Double)] = [(0, 10), (100, 10)], above: [(x: Double, y: Double)] = [(0, -2), (100, -2)]
        #expect(abs(RateUnknownLimit.errorUs(below: below, above: above, end: 100) - 0.004) < 1e-9)
        #expect(abs(RateUnknownLimit.errorUs(below: below, above: above, end: 200) - 0.004) < 1e-9)
        // Symmetric bounds: the middle is the truth. One point of a kind: the rate is not bounded.
        #expect(RateUnknownLimit.errorUs(below: [(0, 5), (50, 7)], above: [(0, -5), (50, -7)], end: 50) < 1e-9)
        #expect(RateUnknownLimit.errorUs(below: [(0, 5)], above: [(0, -5), (50, -7)], end: 50).isInfinite)
        // A rate the points force: below and above meet on the line y = x / 10, so the estimate follows it.
        let tight = RateUnknownLimit.errorUs(below: [(0, 0), (100, 10)], above: [(0, 0), (100, 10)], end: 300)
        #expect(abs(tight - 0.03) < 1e-9, "\(tight)")
    }

    /// What must hold for any exchanges: the truth (the line 0) is among the lines allowed, and every offset
    /// the exchanges allow with the rate known (between the highest point above and the lowest below) is
    /// allowed with it unknown. Random point sets, seeded, checked against all lines through two points.
    @Test func theRangeHoldsTheTruthAndTheRateKnownRange() {
        var rng = SplitMix64(seed: 9)
        for trial in 0..<300 {
            let n = 2 + Int(rng.next() % 30)
            let below = (0..<n).map { i in (x: Double(i) * 1e7 + rng.unit() * 1e6, y: rng.unit() * 1e6) }
            let above = (0..<n).map { i in (x: Double(i) * 1e7 + rng.unit() * 1e6, y: -rng.unit() * 1e6) }
            let end = Double(n) * 1e7
            guard let r = RateUnknownLimit.range(below: below, above: above, end: end) else {
                Issue.record("trial \(trial), seed 9: no range")
                continue
            }
            let knownLo = above.map(\.y).max()!, knownHi = below.map(\.y).min()!
            #expect(r.lo <= 1e-6 && r.hi >= -1e-6, "trial \(trial), seed 9: \(r) misses the truth")
            #expect(r.lo <= knownLo + 1e-6 && r.hi >= knownHi - 1e-6, "trial \(trial), seed 9: \(r) inside [\(knownLo), \(knownHi)]")
            // The hulls drop no constraint that matters: brute force over all points agrees.
            var lo = Double.infinity, hi = -Double.infinity
            let all = below + above
            for i in 0..<all.count {
                for j in (i + 1)..<all.count where all[i].x != all[j].x {
                    let c = (all[j].y - all[i].y) / (all[j].x - all[i].x), a = all[i].y - c * all[i].x
                    guard below.allSatisfy({ a + c * $0.x <= $0.y + 1e-6 }), above.allSatisfy({ a + c * $0.x >= $0.y - 1e-6 }) else { continue }
                    lo = min(lo, a + c * end)
                    hi = max(hi, a + c * end)
                }
            }
            #expect(abs(lo - r.lo) < 1e-3 && abs(hi - r.hi) < 1e-3, "trial \(trial), seed 9: hull \(r), brute force \(lo)...\(hi)")
        }
    }

    /// Over the adapter models, for the benchmark's 487 ms (seed printed): with the rate unknown the error
    /// is larger at the p90; on the frame-grid models, where the error is the forward trip's excess, four
    /// times the time helps (on FTDI the reply's excess is held by the timer's phase to the frames).
    @Test(arguments: LinkModel.names) func overTheModels(name: String) throws {
        let model = try #require(LinkModel.named(name))
        let seed: UInt64 = 3
        func errors(_ s: Double, rateKnown: Bool) -> [Double] {
            AdapterLimit.errorsUs(model: model, estimator: .knowsEachDirection, seconds: s, spacingMs: 10,
                                  trials: 1000, seed: seed, rateKnown: rateKnown)
        }
        let known = errors(0.487, rateKnown: true), unknown = errors(0.487, rateKnown: false), longer = errors(2, rateKnown: false)
        let q = ClockLimit.quantile
        print("\(name), seed \(seed), 487 ms: rate known p50 \(q(known, 0.5)) p90 \(q(known, 0.9)) µs; unknown p50 \(q(unknown, 0.5)) p90 \(q(unknown, 0.9)) µs; 2 s unknown p50 \(q(longer, 0.5)) p90 \(q(longer, 0.9)) µs")
        if !model.holdRestartsOnSend {
            #expect(q(unknown, 0.9) > q(known, 0.9), "\(name) seed \(seed)")
            #expect(q(longer, 0.9) < q(unknown, 0.9) / 2, "\(name) seed \(seed)")
        }
    }
}
