// Rounding half away from zero (Swift's `.rounded()`) without libm's `round` call, for the render loop's
// quantisation: the same result for every |x| <= 2^51, shown below and checked in RoundingTests.
// SPDX-License-Identifier: Apache-2.0

/// `x.rounded()` (to nearest, ties away from zero) for |x| <= 2^51, in plain arithmetic.
///
/// Why it is the same, for a = |x| <= 2^51 (M = 1.5 x 2^52, even):
/// 1. a + M lies in [2^52, 2^53], where the doubles are exactly the integers, so the sum rounds to M + n with
///    n the integer nearest a, ties to even (M + n even exactly when n is). `s - M` is exact (Sterbenz: M <= s
///    <= 2M), so r = n: a rounded half to even.
/// 2. `a - r` is exact: it is a itself when r = 0; otherwise a >= 0.5, and a and the integer
///    r are multiples of ulp(a) <= 1, with |a - r| <= 0.5, which needs at most 52 bits of ulp(a).
/// 3. Half to even and half away from zero differ only on a tie rounded down (a - r == 0.5): then away from
///    zero is r + 1 (exact, an integer below 2^53). A tie rounded up (a - r == -0.5) is already away from zero.
/// 4. `.rounded()` is symmetric, -x rounds to minus what x rounds to, and a zero result keeps x's sign: that
///    is `Double(signOf: x, magnitudeOf:)`.
@inline(always)
func roundedHalfAwayFromZero(_ x: Double) -> Double {
    let a = abs(x)
    let r = (a + 0x1.8p52) - 0x1.8p52
    let up: Double = a - r == 0.5 ? 1 : 0
    return Double(signOf: x, magnitudeOf: r + up)
}
