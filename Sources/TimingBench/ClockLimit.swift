// The best any clock estimator could do on a simulated link: an independent bound for the start error,
// so the benchmark can say how far motorbreath is from the limit instead of only how far from a goal.
// SPDX-License-Identifier: Apache-2.0

/// The best start error any clock estimator could reach on a simulated link: an independent bound, so the
/// timing benchmark can say how far motorbreath's start error is from the limit, not only from a goal.
///
///     let errors = ClockLimit.errorsUs(latencyNs: 2_000_000, jitterNs: 500_000, seconds: 1,
///                                      spacingMs: 50, trials: 1_000, seed: 1)
///     let p95 = ClockLimit.quantile(errors, 0.95)  // µs
public enum ClockLimit {
    /// Offset errors (µs, one per trial) of an ideal estimator that, for `seconds` before the moment that
    /// counts, sends a CLOCK request every `spacingMs` on a link like the benchmark's (each message delayed
    /// by latency ± jitter, uniformly, nothing overtaking), with nothing else on the wire, a board that
    /// answers the instant a request arrives, and the board's rate known exactly. Only exchanges whose
    /// reply is back by the end count.
    ///
    /// Each exchange bounds the offset from both sides (the request cannot arrive before it was sent, the
    /// reply cannot arrive before it left), so the tightest bounds come from the fastest forward trip and
    /// the fastest backward trip, and the middle of them is off by half the difference of their excess
    /// over the minimum delay. No estimator can know more from these timestamps when both directions'
    /// delays follow the same law; motorbreath's has less (an unknown rate, frames sharing the wire).
    ///
    /// The link model is restated here on purpose rather than taken from SimWorld: the bound must not
    /// share a mistake with the simulation it judges.
    public static func errorsUs(latencyNs: UInt64, jitterNs: UInt64, seconds: Double, spacingMs: Double,
                                trials: Int, seed: UInt64) -> [Double] {
        // The one fastest-trip loop, with the same latency ± jitter law both ways (draw for draw what this
        // loop was before the adapter links needed a law per direction).
        let law = AdapterLimit.OneWay(centerNs: Double(latencyNs), halfNs: Double(jitterNs))
        return AdapterLimit.errorsUs(forward: law, backward: law, estimator: .knowsEachDirection, seconds: seconds,
                                     spacingMs: spacingMs, trials: trials, seed: seed)
    }

    /// The `p` quantile (0...1) of `values` (nearest rank; also the benchmark summary's).
    public static func quantile(_ values: [Double], _ p: Double) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return 0 }
        return s[min(s.count - 1, Int((p * Double(s.count - 1)).rounded()))]
    }
}
