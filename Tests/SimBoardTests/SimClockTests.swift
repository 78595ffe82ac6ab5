// The simulated board clock and its inverse agree exactly: the host time `hostNs(atTick: t)` is the first
// at which the board reads t (a rounding error there made the simulation wake the board for nothing,
// forever, at 2500 ppm), for any rate within +-5 %, a drift that wanders, and 32 kHz to 1 GHz clocks.
// SPDX-License-Identifier: Apache-2.0

import Breath
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct SimClockTests {
    @Test func hostTimeOfATickIsTheFirstInstantTheBoardReadsIt() {
        let seed = UInt64.random(in: 0..<1_000_000)
        var rng = SplitMix64(seed: seed)
        let rates: [UInt64] = [32_768, 1_000_000, 16_000_000, 1_000_000_000]
        for _ in 0..<100 {
            let clock = SimClock(clockHz: rates[Int(rng.next() % 4)], offsetTicks: rng.next() % 1_000_000_000,
                                 driftPPM: rng.unit() * 100_000 - 50_000, wanderPPMPerMinute: rng.unit() * 2000 - 1000,
                                 bootNs: rng.next() % 1_000_000_000_000)
            for _ in 0..<20 {
                let hours = rng.unit() * 3
                let tick = clock.ticks(atHostNs: clock.bootNs + UInt64(hours * 3.6e12)) + rng.next() % 1000
                let ns = clock.hostNs(atTick: tick)
                #expect(clock.ticks(atHostNs: ns) >= tick, "seed \(seed): \(clock) reads \(clock.ticks(atHostNs: ns)) at \(ns), not \(tick)")
                #expect(ns == clock.bootNs || clock.ticks(atHostNs: ns - 1) < tick, "seed \(seed): \(ns) is not the first ns of tick \(tick)")
            }
        }
    }

    @Test func driftWandersAsSet() {
        let c = SimClock(clockHz: 1_000_000, driftPPM: 1000, wanderPPMPerMinute: 600, bootNs: 0)
        #expect(abs(c.driftPPM(atHostNs: 60_000_000_000) - 1600) < 0.01)
        // One minute at 1000 -> 1600 ppm (10 ppm more each second): 60 s x 1 MHz x (1 + mean drift).
        let expected = 60_000_000.0 * (1 + (1000 + 10 * 29.5) / 1e6)
        #expect(abs(Double(c.ticks(atHostNs: 60_000_000_000)) - expected) < 1)
    }
}
