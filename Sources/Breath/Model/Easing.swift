// Easing functions for parameter-curve segments: linear, sine in-out, smoothstep, cubic in-out.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// How a curve segment moves from one control point's value to the next one's.
public enum Easing: String, Sendable, CaseIterable, Codable {
    case linear
    case sineInOut = "sine-in-out"
    case smoothstep
    case cubicInOut = "cubic-in-out"

    /// Progress 0...1 -> eased progress 0...1 (x is clamped).
    @inline(__always)
    public func apply(_ x: Double) -> Double {
        let u = min(max(x, 0), 1)
        switch self {
        case .linear: return u
        case .sineInOut: return 0.5 - 0.5 * cos(Double.pi * u)
        case .smoothstep: return u * u * (3 - 2 * u)
        case .cubicInOut: return u < 0.5 ? 4 * u * u * u : 1 - pow(-2 * u + 2, 3) / 2
        }
    }
}
