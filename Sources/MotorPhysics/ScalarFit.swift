// A deterministic one-parameter minimiser: a log-spaced grid, then golden-section search around the best.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Minimises a function of one positive parameter over [lo, hi]: 24 log-spaced grid points, then a
/// golden-section search between the best one's neighbours to a relative width of 1e-4. Deterministic and
/// robust to the local minima a coarse error surface has; the cost is about 50 evaluations.
enum ScalarFit {
    static func minimise(_ lo: Double, _ hi: Double, grid: Int = 24, _ f: (Double) -> Double) -> Double {
        let ratio = log(hi / lo)
        let xs = (0..<grid).map { lo * exp(ratio * Double($0) / Double(grid - 1)) }
        let ys = xs.map(f)
        let best = ys.indices.min { ys[$0] < ys[$1] }!
        var a = log(xs[max(0, best - 1)]), b = log(xs[min(grid - 1, best + 1)])
        let g = (5.0.squareRoot() - 1) / 2
        var c = b - g * (b - a), d = a + g * (b - a)
        var fc = f(exp(c)), fd = f(exp(d))
        while b - a > 1e-4 {
            if fc < fd {
                b = d; d = c; fd = fc
                c = b - g * (b - a); fc = f(exp(c))
            } else {
                a = c; c = d; fc = fd
                d = a + g * (b - a); fd = f(exp(d))
            }
        }
        let x = exp((a + b) / 2)
        return f(x) <= ys[best] ? x : xs[best]
    }
}
