// Conversions that never trap: a value a client's command or a board's reply made non-finite or huge is
// clamped to the range of the type it goes into (NaN to 0), where `Int64(x)` or `UInt64(x)` would stop the
// process. Used where such a value can reach a conversion (the clock estimate, the schedule, live changes).
// SPDX-License-Identifier: Apache-2.0

extension UInt64 {
    /// `x` rounded toward zero and clamped to 0...UInt64.max; NaN gives 0.
    init(saturating x: Double) {
        if !(x > 0) { self = 0 } else if x >= 18_446_744_073_709_551_616.0 { self = .max } else { self = UInt64(x) }
    }
}

extension Int64 {
    /// `x` rounded toward zero and clamped to Int64.min...Int64.max; NaN gives 0.
    init(saturating x: Double) {
        if x.isNaN { self = 0 } else if x >= 9_223_372_036_854_775_808.0 { self = .max }
        else if x < -9_223_372_036_854_775_808.0 { self = .min } else { self = Int64(x) }
    }
}

extension Int {
    /// `x` rounded toward zero and clamped to Int.min...Int.max; NaN gives 0.
    init(saturating x: Double) { self = Int(Int64(saturating: x)) }
}

extension UInt64 {
    /// `self + x`, UInt64.max where the sum would not fit (a host time or a tick past anything reachable).
    func plusSaturating(_ x: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(x)
        return overflow ? .max : sum
    }

    /// `self * x`, UInt64.max where the product would not fit.
    func timesSaturating(_ x: UInt64) -> UInt64 {
        let (product, overflow) = multipliedReportingOverflow(by: x)
        return overflow ? .max : product
    }
}
