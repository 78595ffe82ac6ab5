// Fixed-capacity byte storage (no heap), sized for the largest frame protocol v1 allows.
// SPDX-License-Identifier: Apache-2.0

/// A byte buffer with a fixed capacity of `FixedBytes.capacity` and a current `count`.
/// It lives inline (stack or static memory), so firmware can use it without a heap.
public struct FixedBytes: Sendable {
    public static let capacity = 256
    @usableFromInline var storage = InlineArray<256, UInt8>(repeating: 0)
    public private(set) var count = 0

    public init() {}

    public var isFull: Bool { count == FixedBytes.capacity }

    @inline(__always)
    public subscript(_ i: Int) -> UInt8 {
        get { storage[i] }
        set { storage[i] = newValue }
    }

    /// Appends a byte; returns false (and drops it) when the buffer is full.
    @discardableResult @inline(__always)
    public mutating func append(_ byte: UInt8) -> Bool {
        guard count < FixedBytes.capacity else { return false }
        storage[count] = byte
        count += 1
        return true
    }

    public mutating func removeAll() { count = 0 }

    /// Shortens the buffer to `newCount` bytes (never lengthens it).
    public mutating func truncate(to newCount: Int) {
        if newCount < count { count = max(0, newCount) }
    }

    public mutating func appendLE16(_ v: UInt16) {
        append(UInt8(truncatingIfNeeded: v))
        append(UInt8(truncatingIfNeeded: v >> 8))
    }

    public mutating func appendLE32(_ v: UInt32) {
        appendLE16(UInt16(truncatingIfNeeded: v))
        appendLE16(UInt16(truncatingIfNeeded: v >> 16))
    }

    public mutating func appendLE64(_ v: UInt64) {
        appendLE32(UInt32(truncatingIfNeeded: v))
        appendLE32(UInt32(truncatingIfNeeded: v >> 32))
    }

    /// The readers are inlined: out of line, each read copies the whole 256-byte buffer first.
    @inline(__always)
    public func le16(at i: Int) -> UInt16 {
        UInt16(storage[i]) | UInt16(storage[i + 1]) << 8
    }

    @inline(__always)
    public func le32(at i: Int) -> UInt32 {
        UInt32(le16(at: i)) | UInt32(le16(at: i + 2)) << 16
    }

    @inline(__always)
    public func le64(at i: Int) -> UInt64 {
        UInt64(le32(at: i)) | UInt64(le32(at: i + 4)) << 32
    }

    /// The used bytes through one pointer (one copy of the storage instead of one per read; see
    /// DutyValues.withUnsafeValues).
    @inline(__always)
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        var copy = storage
        let n = count
        return Swift.withUnsafeBytes(of: &copy) { raw in body(UnsafeRawBufferPointer(rebasing: raw[0..<n])) }
    }

    /// Byte-wise equality of the used part.
    public func sameBytes(as other: borrowing FixedBytes) -> Bool {
        guard count == other.count else { return false }
        for i in 0..<count where storage[i] != other.storage[i] { return false }
        return true
    }
}
