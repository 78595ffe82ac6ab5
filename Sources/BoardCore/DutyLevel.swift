// Converts raw duty values of each wire format to the board's signed drive level.
// SPDX-License-Identifier: Apache-2.0

#if canImport(MotorWire)
import MotorWire
#endif

extension DutyFormat {
    /// Drive level -32767...32767 for a raw value of this format.
    @inline(__always)
    public func level(_ raw: UInt16) -> Int16 {
        switch self {
        case .u8: return Int16(UInt32(raw & 0xFF) * 32767 / 255)
        case .u16: return Int16(raw >> 1)
        case .i16: return max(-32767, Int16(bitPattern: raw))
        }
    }
}
