// Everything that can be wrong with bytes received from the wire, as one error enum.
// SPDX-License-Identifier: Apache-2.0

/// Why a frame or message was rejected. Decoders count these; nothing here traps.
public enum WireError: Error, Sendable, Equatable {
    /// More than `Wire.maxEncodedFrame` bytes before a delimiter.
    case frameTooLong
    /// A 0x00-delimited block that is not valid COBS.
    case badCOBS
    /// Fewer bytes than a header and a CRC.
    case frameTooShort
    /// CRC mismatch.
    case badCRC
    /// Header version is not `Wire.version`.
    case badVersion(UInt8)
    /// Header length field disagrees with the frame's size, or exceeds `Wire.maxPayload`.
    case badLength
    /// Type code not defined for this direction.
    case unknownType(UInt8)
    /// Payload size or a field value does not fit the message type.
    case badPayload(MessageType)
}
