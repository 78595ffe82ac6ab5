// The session bound (SessionLimit) against what it must obey before it is used as a goal: its incremental
// hulls and slope searches give the brute force's range (RateUnknownLimit) at every judged instant, the true
// clock line stays inside that range, and the range only narrows as exchanges accumulate.
// SPDX-License-Identifier: Apache-2.0

import Breath
import SimBoard
import Testing
@testable import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SessionLimitTests {
    /// Random constraint sets (seeded), points added in x order: the ternary-searched range equals the
    /// vertex enumeration's (RateUnknownLimit.range, itself checked against hand-solved cases).
    @Test func theRangeEqualsTheBruteForce() {
        let seed: UInt64 = 3
        var rng = SplitMix64(seed: seed)
        for trial in 0..<200 {
            var lines = FeasibleLines()
            var below: [(x: Double, y: Double)] = [], above: [(x: Double, y: Double)] = []
            // At least 30 exchanges 20 ms apart: every line between them is within the ±5 % searched.
            let rate = (rng.unit() * 2 - 1) * 1e-3, n = 30 + Int(rng.unit() * 40)
            for i in 0..<n {
                let x = Double(i) * 2e7 + rng.unit() * 1e6
                let b = (x, rate * x + rng.unit() * 2e6), a = (x + 3e6, rate * (x + 3e6) - rng.unit() * 1.6e7)
                below.append(b)
                above.append(a)
                lines.add(below: b, above: a)
            }
            let end = Double(n) * 2e7 + 5e6
            let brute = RateUnknownLimit.range(below: below, above: above, end: end)
            let mine = lines.range(at: end)
            #expect((brute == nil) == (mine == nil), "seed \(seed) trial \(trial)")
            if let brute, let mine {
                #expect(abs(brute.lo - mine.lo) < 1 && abs(brute.hi - mine.hi) < 1,
                        "seed \(seed) trial \(trial): brute \(brute), ternary \(mine)")
            }
        }
    }

    /// One short session per model: at every judged instant the true line (offset 0) lies in the range
    /// (a minimum set above the model's real one would push it out), and the range's width at the session's
    /// start never grows as exchanges accumulate.
    @Test(arguments: LinkModel.names) func theTruthStaysInsideAndTheRangeNarrows(name: String) throws {
        let model = try #require(LinkModel.named(name))
        let m = AdapterLimit.Mechanics(model)
        let (minForward, minBackward) = m.minimaNs
        let seed: UInt64 = 5
        var rng = SplitMix64(seed: seed)
        let framePhase = rng.unit() * 1e6, holdPhase = rng.unit() * m.holdNs
        var lines = FeasibleLines()
        var lastWidth = Double.infinity
        var sent = 0.0
        for k in 0..<400 {
            sent += 1e7 + rng.unit() * 2e7
            let (atBoard, atHost) = m.exchange(sent: sent, framePhase: framePhase, holdPhase: holdPhase)
            lines.add(below: (sent + minForward, atBoard - sent - minForward),
                      above: (atHost - minBackward, -(atHost - atBoard - minBackward)))
            guard let now = lines.range(at: atHost), let atStart = lines.range(at: 0) else { continue }
            #expect(now.lo <= 1e-3 && now.hi >= -1e-3, "\(name) seed \(seed) exchange \(k): [\(now.lo), \(now.hi)]")
            let width = atStart.hi - atStart.lo
            #expect(width <= lastWidth + 1e-3, "\(name) seed \(seed) exchange \(k)")
            lastWidth = width
        }
    }

    /// The whole-session figure against the rate-known estimator on the same exchanges (drawn again here
    /// in the bound's order): after a minute the rate is known so well that the bound's last error is
    /// within 10 µs of half the difference of the fastest trips' excesses each way.
    @Test(arguments: ["ftdi", "cdc", "ch340"]) func aMinuteLandsOnTheRateKnownEstimator(name: String) throws {
        let model = try #require(LinkModel.named(name))
        let m = AdapterLimit.Mechanics(model)
        let (minForward, minBackward) = m.minimaNs
        let seed: UInt64 = 9
        var rng = SplitMix64(seed: seed)
        let e = SessionLimit.errorsUs(model: model, minutes: 1, rng: &rng)
        #expect(e.count == 3000)
        var again = SplitMix64(seed: seed)
        let framePhase = again.unit() * 1e6, holdPhase = again.unit() * m.holdNs
        let spread = max(m.holdNs, 1e6), end = 60.5e9, lastJudged = 0.5e9 + 2999 * 2e7
        var fastestForward = Double.infinity, fastestBackward = Double.infinity
        var slot = 0.0
        while slot < end {
            let sent = slot + again.unit() * spread
            let (atBoard, atHost) = m.exchange(sent: sent, framePhase: framePhase, holdPhase: holdPhase)
            if atHost <= lastJudged {
                fastestForward = min(fastestForward, atBoard - sent - minForward)
                fastestBackward = min(fastestBackward, atHost - atBoard - minBackward)
            }
            slot += slot < 0.2e9 ? 1e7 : 2e7
        }
        let rateKnown = abs(fastestForward - fastestBackward) / 2 / 1000
        print("\(name), seed \(seed), 1 minute: last error \(e.last!) µs, rate known \(rateKnown) µs, p99 \(ClockLimit.quantile(e, 0.99)) µs")
        #expect(abs(e.last! - rateKnown) < 10, "\(name) seed \(seed)")
    }
}
