// The slope search's envelopes over the hulls equal the envelopes over every exchange (ClockHull), on
// exchanges like a jittery link's, at slopes across the whole +-5 % search range.
// SPDX-License-Identifier: Apache-2.0

import Breath
@testable import MotorSession
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ClockHullTests {
    @Test func theHullsGiveTheSameEnvelopesAsEveryExchange() {
        let seed = UInt64(0x5eed_c10c)
        var rng = SplitMix64(seed: seed)
        for trial in 0..<200 {
            // A board 0...2 % off, exchanges every 5-25 ms with 8-24 ms trips each way, some round numbers
            // (equal send times, collinear points) to tempt the hull into dropping a point.
            let rate = 1 + (rng.unit() - 0.5) * 0.04
            var samples: [ClockSample] = []
            var t = UInt64(1_000_000_000) + rng.next() % 1_000_000
            for _ in 0..<(8 + Int(rng.next() % 600)) {
                let up = 8_000_000 + rng.next() % 16_000_000, down = 8_000_000 + rng.next() % 16_000_000
                let tick = UInt64(Double(t + up) * rate * 0.001)  // a 1 MHz board clock
                samples.append(ClockSample(sentNs: t, receivedNs: t + up + down, tick: tick))
                t += rng.next() % 4 == 0 ? 0 : 5_000_000 + rng.next() % 20_000_000
            }
            let newest = samples.last!
            let hull = ClockHull(samples[...], reference: newest.receivedNs, tick0: newest.tick)
            #expect(hull.lower.count + hull.upper.count <= 2 * samples.count)
            for _ in 0..<20 {
                let slope = 0.001 * (1 + (rng.unit() * 2 - 1) * 0.05)
                let all = ClockTracker.envelopes(samples[...], slope: slope, reference: newest.receivedNs, tick0: newest.tick)
                let fast = hull.envelopes(slope: slope)
                #expect(fast.low == all.low && fast.high == all.high,
                        "seed \(seed) trial \(trial) slope \(slope): hull \(fast), all \(all)")
            }
        }
    }
}
