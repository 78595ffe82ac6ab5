// Profiles saved under the unique id an Arduino (AVR) board reported before its id took in the die's
// X/Y position (hardware/REVIEW.md, A3): that id was the signature-row bytes 0x0E-0x15 (lot number,
// a reserved byte, wafer); the id now is the lot folded into 5 bytes, then wafer, die Y, die X
// (protocol.md, INFO). The old id determines the new id's first six bytes, so a saved profile whose
// id maps onto them is this board's (or one from the same wafer, which shared that profile anyway).
// SPDX-License-Identifier: Apache-2.0

/// The old AVR unique id and the new one, byte by byte (wire order, little-endian).
public enum LegacyBoardID {
    static func byte(_ v: UInt64, _ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: v >> (8 * i)) }

    /// Whether `oldID`, an id an AVR board reported before, belongs to the chip that now reports `newID`.
    public static func avrMatches(oldID: UInt64, newID: UInt64) -> Bool {
        guard oldID != newID else { return false }
        let last = byte(oldID, 5)
        guard byte(oldID, 0) ^ (last << 4 | last >> 4) == byte(newID, 0) else { return false }
        for i in 1...4 where byte(oldID, i) != byte(newID, i) { return false }
        return byte(oldID, 7) == byte(newID, 5)
    }
}

extension ConfigStore {
    /// Names of saved profiles for `spot` whose board id is an old AVR id of the board now reporting `newID`.
    public func legacyAVRProfileNames(newID: UInt64, spot: String) -> [String] {
        let suffix = "-" + spot
        return profileNames().filter { name in
            guard name.hasSuffix(suffix) else { return false }
            let id = name.dropLast(suffix.count)
            guard id.count == 16, let old = UInt64(id, radix: 16) else { return false }
            return LegacyBoardID.avrMatches(oldID: old, newID: newID)
        }
    }
}
