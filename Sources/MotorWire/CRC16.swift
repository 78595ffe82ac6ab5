// CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, xorout 0, check 0x29B1) for protocol v1.
// SPDX-License-Identifier: Apache-2.0

/// CRC-16/CCITT-FALSE, also catalogued as CRC-16/IBM-3740 and CRC-16/AUTOSAR.
/// Width 16, polynomial 0x1021, init 0xFFFF, refin/refout false, xorout 0x0000.
/// The CRC of the ASCII bytes "123456789" is 0x29B1.
public struct CRC16: Sendable {
    public private(set) var value: UInt16 = 0xFFFF

    public init() {}

    @inline(__always)
    public mutating func update(_ byte: UInt8) {
        var crc = value ^ (UInt16(byte) << 8)
        for _ in 0..<8 {
            crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1
        }
        value = crc
    }

    /// Adds a 16-bit value as 2 little-endian bytes (how PLAYED checksums duty values).
    @inline(__always)
    public mutating func update(le16 value: UInt16) {
        update(UInt8(truncatingIfNeeded: value))
        update(UInt8(truncatingIfNeeded: value >> 8))
    }

    /// CRC of duty values, each as 2 little-endian bytes: PLAYED's `duty_crc`.
    public static func ofDuties<S: Sequence>(_ values: S) -> UInt16 where S.Element == UInt16 {
        var crc = CRC16()
        for v in values { crc.update(le16: v) }
        return crc.value
    }

    /// CRC of `count` bytes of `bytes` starting at `start`.
    public static func of(_ bytes: borrowing FixedBytes, from start: Int = 0, count: Int) -> UInt16 {
        bytes.withUnsafeBytes { raw in
            var crc = CRC16()
            for i in start..<(start + count) { crc.update(raw[i]) }
            return crc.value
        }
    }
}
