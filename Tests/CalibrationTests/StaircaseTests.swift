// The staircase on its own, against responders whose answers are known exactly: a step responder (the
// estimate lands within the smallest step of its edge) and a probabilistic one (1-up/1-down converges to
// the 50 % point, 1-up/2-down to the 70.7 % point, averaged over seeds).
// SPDX-License-Identifier: Apache-2.0

import Breath
import Calibration
import Foundation
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10)))
struct StaircaseTests {
    @Test func stepResponderIsFoundWithinTheSmallestStep() {
        for edge in stride(from: 0.03, through: 0.7, by: 0.037) {
            var s = Staircase(StaircaseRule(start: 0.5, step: 0.1, minStep: 0.005))
            while !s.done { s.answer(positive: s.level >= edge) }
            let r = s.result
            #expect(r.converged, "edge \(edge)")
            #expect(r.reversals == 8)
            // Each reversal lies within the step in force before it of the edge; the last 6 of 8 came after
            // steps of 0.025, 0.0125, 0.00625 and then 0.005: the mean is within their mean, 0.0098.
            #expect(abs(r.estimate - edge) <= 0.0098 + 1e-9, "edge \(edge): estimate \(r.estimate)")
            #expect(r.spread < 0.02)
        }
    }

    @Test func levelsStayInsideTheRange() {
        var s = Staircase(StaircaseRule(start: 0.9, step: 0.3, minStep: 0.01, low: 0.2, high: 0.95, maxTrials: 30))
        while !s.done { s.answer(positive: false) }  // never felt: climbs to the top and stays
        #expect(s.history.allSatisfy { (0.2...0.95).contains($0.level) })
        #expect(!s.result.converged)
        #expect(s.result.trials == 30)
    }

    /// Mean of the estimates of many staircases against a logistic responder.
    func meanEstimate(downAfter: Int, seedBase: UInt64) -> Double {
        var sum = 0.0
        let n = 400
        for k in 0..<n {
            var random = SplitMix64(seed: (seedBase + UInt64(k)) &+ 0x9E37_79B9_7F4A_7C15)  // as the simulated people start
            var s = Staircase(StaircaseRule(start: 0.6, step: 0.08, minStep: 0.01, downAfter: downAfter,
                                            reversals: 14, averaged: 10, maxTrials: 200))
            while !s.done {
                let p = 1 / (1 + exp(-(s.level - 0.4) / 0.03))  // 50 % at 0.4
                s.answer(positive: random.unit() < p)
            }
            sum += s.result.estimate
        }
        return sum / Double(n)
    }

    @Test func oneUpOneDownTargetsTheMedianAndOneUpTwoDownTheSeventyPercentPoint() {
        let p50 = meanEstimate(downAfter: 1, seedBase: 1000)
        let p707 = meanEstimate(downAfter: 2, seedBase: 5000)
        // The logistic's 70.7 % point: 0.4 + 0.03 ln(0.707/0.293) = 0.4264.
        let target707 = 0.4 + 0.03 * log(0.707 / 0.293)
        #expect(abs(p50 - 0.4) < 0.008, "1-up/1-down mean estimate \(p50), seeds 1000..<1400")
        #expect(abs(p707 - target707) < 0.008, "1-up/2-down mean estimate \(p707) vs \(target707), seeds 5000..<5400")
    }
}
