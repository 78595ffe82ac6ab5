// Numbers with a fixed number of decimals, exactly as printf's "%.Nf" writes them: the text of the frame
// files (CSV, SVG), written fast for the millions of numbers of a long render.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Numbers with a fixed number of decimals, exactly as printf's "%.Nf" writes them, without its cost.
enum FixedDecimal {
    static let scales: [Double] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]

    /// printf's "%.Nf" itself.
    static func text(_ x: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", x)
    }

    /// `x` with `digits` (0...6) decimals appended to `out`.
    static func append(_ x: Double, _ digits: Int, to out: inout [UInt8]) {
        let scale = scales[digits]
        let m = abs(x) * scale
        let whole = m.rounded(.down)
        let fraction = m - whole
        // Near a tie the product's rounding could decide differently from printf's exact decimal: use printf.
        guard x.isFinite, m < 1e9, abs(fraction - 0.5) > 1e-6 else {
            out.append(contentsOf: text(x, digits).utf8)
            return
        }
        let n = UInt64(fraction > 0.5 ? whole + 1 : whole)
        if x.sign == .minus { out.append(UInt8(ascii: "-")) }
        let unit = UInt64(scale)
        appendDigits(n / unit, minimum: 1, to: &out)
        if digits > 0 {
            out.append(UInt8(ascii: "."))
            appendDigits(n % unit, minimum: digits, to: &out)
        }
    }

    /// Decimal digits of `value` (below 10^18), zero-padded to `minimum`.
    private static func appendDigits(_ value: UInt64, minimum: Int, to out: inout [UInt8]) {
        var power: UInt64 = 1, count = 1
        while power <= value / 10 {
            power *= 10
            count += 1
        }
        for _ in count..<max(count, minimum) { out.append(UInt8(ascii: "0")) }
        while power > 0 {
            out.append(UInt8(ascii: "0") + UInt8(value / power % 10))
            power /= 10
        }
    }
}
