// One frame's content after deframing: header fields plus payload bytes, and its wire encoding.
// SPDX-License-Identifier: Apache-2.0

/// A validated frame: version already checked, CRC already checked.
public struct Packet: Sendable {
    public var type: UInt8
    public var seq: UInt8
    public var payload: FixedBytes

    public init(type: UInt8, seq: UInt8, payload: FixedBytes = FixedBytes()) {
        self.type = type
        self.seq = seq
        self.payload = payload
    }

    /// Encodes header + payload + CRC, COBS-stuffed, followed by the 0x00 delimiter.
    /// Returns false if the payload is longer than `Wire.maxPayload`.
    public func encode(into wire: inout FixedBytes) -> Bool {
        guard payload.count <= Wire.maxPayload else { return false }
        var raw = FixedBytes()
        raw.append(Wire.version)
        raw.append(type)
        raw.append(seq)
        raw.append(UInt8(payload.count))
        payload.withUnsafeBytes { bytes in for b in bytes { raw.append(b) } }
        let crc = CRC16.of(raw, count: raw.count)
        raw.appendLE16(crc)
        guard COBS.encode(raw, into: &wire) else { return false }
        return wire.append(Wire.delimiter)
    }

    /// Parses one COBS-decoded frame (header + payload + CRC).
    public static func parse(raw: borrowing FixedBytes) throws(WireError) -> Packet {
        guard raw.count >= Wire.headerSize + Wire.crcSize else { throw .frameTooShort }
        let body = raw.count - Wire.crcSize
        guard CRC16.of(raw, count: body) == raw.le16(at: body) else { throw .badCRC }
        guard raw[0] == Wire.version else { throw .badVersion(raw[0]) }
        let length = Int(raw[3])
        guard length <= Wire.maxPayload, Wire.headerSize + length == body else { throw .badLength }
        var payload = FixedBytes()
        raw.withUnsafeBytes { bytes in for b in bytes[Wire.headerSize..<body] { payload.append(b) } }
        return Packet(type: raw[1], seq: raw[2], payload: payload)
    }
}
