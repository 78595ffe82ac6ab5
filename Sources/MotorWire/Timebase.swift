// Protocol v1 timing formula: maps frame indices to board ticks: anchor index, anchor tick, period in 32.32 fixed point.
// SPDX-License-Identifier: Apache-2.0

/// Frame i plays at anchorTick + (i - anchorIndex) * periodQ32 / 2^32 (rounded down).
public struct Timebase: Sendable, Equatable {
    public var anchorIndex: UInt32
    public var anchorTick: UInt64
    public var periodQ32: UInt64

    public init(anchorIndex: UInt32, anchorTick: UInt64, periodQ32: UInt64) {
        self.anchorIndex = anchorIndex
        self.anchorTick = anchorTick
        self.periodQ32 = periodQ32
    }

    /// Ticks per frame, rounded down.
    public var periodTicks: UInt64 { periodQ32 >> 32 }

    /// Board tick at which frame `index` is due. Indices before the anchor (by the signed
    /// 32-bit distance) are due before the anchor tick; results saturate at 0.
    public func due(_ index: UInt32) -> UInt64 {
        let d = indexDistance(index, anchorIndex)
        let steps = UInt64(d.magnitude)
        let product = steps.multipliedFullWidth(by: periodQ32)
        let offset = product.high << 32 | product.low >> 32  // (steps * periodQ32) >> 32
        if d >= 0 { return anchorTick &+ offset }
        // Before the anchor the floor is one tick further back when there is a fraction (protocol.md: floor).
        let back = offset &+ (product.low & 0xFFFF_FFFF != 0 ? 1 : 0)
        return back > anchorTick ? 0 : anchorTick - back
    }
}

/// Signed distance from `b` to `a` on the 32-bit index circle (positive when `a` is after `b`).
@inline(__always)
public func indexDistance(_ a: UInt32, _ b: UInt32) -> Int32 {
    Int32(bitPattern: a &- b)
}

extension Start {
    /// The timebase this START sets.
    public var timebase: Timebase { Timebase(anchorIndex: anchorIndex, anchorTick: anchorTick, periodQ32: periodQ32) }

    /// Period in 32.32 ticks for `frameRate` frames per second of a `clockHz` clock, corrected by
    /// `driftPPB` (how many parts per billion the board clock runs fast; negative = slow).
    /// Integer arithmetic only, with a 128-bit intermediate, so firmware can use it too.
    public static func periodQ32(clockHz: UInt32, frameRate: Int, driftPPB: Int64 = 0) -> UInt64 {
        let nominal = (UInt64(clockHz) << 32) / UInt64(frameRate)
        guard driftPPB != 0 else { return nominal }
        let product = nominal.multipliedFullWidth(by: driftPPB.magnitude)
        let correction = UInt64(1_000_000_000).dividingFullWidth((high: product.high, low: product.low)).quotient
        return driftPPB > 0 ? nominal + correction : nominal - correction
    }
}
