// A person's felt range on one body spot (from a calibration): intensity 0...1 mapped onto it, so the
// faintest intended vibration is still felt and full intensity is the strongest comfortable one.
// SPDX-License-Identifier: Apache-2.0

/// A person's felt range on one body spot, from a calibration: maps intensity 0...1 onto it so the faintest
/// intended vibration is still felt and full intensity is the strongest comfortable one. Silence stays
/// silent.
///
///     let range = FeltRange(floor: 0.2, ceiling: 0.9)
///     range.map(0)    // 0
///     range.map(0.5)  // 0.55
///     range.map(1)    // 0.9
public struct FeltRange: Sendable, Equatable {
    /// Weakest level felt on the spot, and the strongest comfortable one (fractions of full drive).
    public var floor: Double
    public var ceiling: Double

    /// A range with both ends clamped to 0...1 and the ceiling at least the floor.
    public init(floor: Double, ceiling: Double) {
        self.floor = min(max(floor, 0), 1)
        self.ceiling = min(max(ceiling, self.floor), 1)
    }

    /// Silence stays silent; any intensity above it lands between the floor and the ceiling.
    @inline(__always)
    public func map(_ v: Double) -> Double {
        v <= 1e-9 ? 0 : floor + min(v, 1) * (ceiling - floor)
    }
}
