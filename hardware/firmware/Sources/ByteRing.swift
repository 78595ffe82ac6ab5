// Single-producer single-consumer byte rings between the USART interrupt and the main loop.
// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// A ring of 2^k bytes. One side only pushes, the other only pops; the indices are atomics, so the
/// interrupt and the main loop never need to mask each other.
struct ByteRing: ~Copyable {
    private var storage = InlineArray<1024, UInt8>(repeating: 0)
    private let head = Atomic<UInt32>(0)  // next write (producer)
    private let tail = Atomic<UInt32>(0)  // next read (consumer)
    static let mask: UInt32 = 1023

    var count: UInt32 { head.load(ordering: .acquiring) &- tail.load(ordering: .acquiring) }
    var isEmpty: Bool { count == 0 }
    var space: UInt32 { 1024 - count }

    /// Producer side. False (byte dropped) when full.
    mutating func push(_ b: UInt8) -> Bool {
        let h = head.load(ordering: .relaxed)
        guard h &- tail.load(ordering: .acquiring) < 1024 else { return false }
        storage[Int(h & ByteRing.mask)] = b
        head.store(h &+ 1, ordering: .releasing)
        return true
    }

    /// Consumer side.
    mutating func pop() -> UInt8? {
        let t = tail.load(ordering: .relaxed)
        guard t != head.load(ordering: .acquiring) else { return nil }
        let b = storage[Int(t & ByteRing.mask)]
        tail.store(t &+ 1, ordering: .releasing)
        return b
    }
}
