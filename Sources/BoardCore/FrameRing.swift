// Fixed ring of received duty values, addressed by absolute frame index (no heap).
// SPDX-License-Identifier: Apache-2.0

#if canImport(MotorWire)
import MotorWire
#endif

/// Holds raw duty values for frame indices in [nextPlay, nextPlay + capacity), with a received bit per
/// slot (frames may arrive out of order: selective repeat).
/// Capacity is a power of two up to `FrameRing.maxCapacity`, so index wrap-around at 2^32 is seamless.
public struct FrameRing: Sendable {
    public static let maxCapacity = 1024
    private var slots = InlineArray<1024, UInt16>(repeating: 0)
    private var present = InlineArray<32, UInt32>(repeating: 0)
    public let capacity: Int
    private let mask: UInt32

    public init(capacity: Int) {
        precondition(capacity > 0 && capacity <= FrameRing.maxCapacity && capacity & (capacity - 1) == 0,
                     "ring capacity must be a power of two <= 1024")
        self.capacity = capacity
        self.mask = UInt32(capacity - 1)
    }

    // Every accessor is inlined: called out of line, Swift copies the whole ring (2 KB) to read one slot
    // (measured with the cycle bench), which costs more than the rest of a frame's work together.
    @inline(__always)
    public subscript(index: UInt32) -> UInt16 {
        get { slots[Int(index & mask)] }
        set { slots[Int(index & mask)] = newValue }
    }

    /// Whether the slot of `index` holds a received, not yet played value.
    @inline(__always) public func has(_ index: UInt32) -> Bool {
        let slot = Int(index & mask)
        return present[slot >> 5] & (1 << UInt32(slot & 31)) != 0
    }

    @inline(__always)
    public mutating func store(_ value: UInt16, at index: UInt32) {
        let slot = Int(index & mask)
        slots[slot] = value
        present[slot >> 5] |= 1 << UInt32(slot & 31)
    }

    @inline(__always)
    public mutating func clear(_ index: UInt32) {
        let slot = Int(index & mask)
        present[slot >> 5] &= ~(1 << UInt32(slot & 31))
    }

    public mutating func clearAll() {
        for i in 0..<32 { present[i] = 0 }
    }
}
