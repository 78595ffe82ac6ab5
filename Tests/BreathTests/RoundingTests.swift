// `roundedHalfAwayFromZero` against Swift's `.rounded()`: every half-integer and its neighbours in the
// quantiser's range, signed zeros, and seeded random values, bit for bit.
// SPDX-License-Identifier: Apache-2.0

@testable import Breath
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct RoundingTests {
    func same(_ x: Double) -> Bool { roundedHalfAwayFromZero(x).bitPattern == x.rounded().bitPattern }

    @Test func tiesNeighboursAndZeros() {
        var bad: [Double] = []
        for k in -70_000...70_000 {
            for base in [Double(k), Double(k) + 0.5] {
                for x in [base, base.nextUp, base.nextDown, base.nextUp.nextUp, base.nextDown.nextDown] where !same(x) { bad.append(x) }
            }
        }
        for x in [0.0, -0.0, 0.49999999999999994, -0.49999999999999994, 0.5, -0.5, .leastNonzeroMagnitude,
                  -.leastNonzeroMagnitude, 0x1p51, -0x1p51, 0x1p51 - 0.5, 0x1p50 + 0.5] where !same(x) { bad.append(x) }
        #expect(bad.isEmpty, "differ at \(bad.prefix(10))")
    }

    @Test func randomValues() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix(seed: seed)
        var bad: [Double] = []
        for _ in 0..<2_000_000 {
            let x = Double.random(in: -65_536...65_536, using: &rng) * (Bool.random(using: &rng) ? 1 : 1e-5)
            if !same(x) { bad.append(x) }
        }
        #expect(bad.isEmpty, "differ at \(bad.prefix(10)) (seed \(seed))")
    }
}
