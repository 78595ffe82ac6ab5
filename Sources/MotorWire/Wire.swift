// Protocol v1 constants shared by host and board: version, sizes, message type codes.
// SPDX-License-Identifier: Apache-2.0

/// Numbers fixed by protocol.md, section "Frame layout" and "Messages".
public enum Wire {
    public static let version: UInt8 = 1
    /// The revision of version 1 this code implements (protocol.md section 10): 5 is revision 1.5.
    /// Announced in INFO's extension to a host that asks with HELLO's `host_revision` byte.
    public static let revision: UInt8 = 5
    /// Header bytes before the payload: version, type, seq, length.
    public static let headerSize = 4
    public static let crcSize = 2
    /// Largest payload a frame may carry.
    public static let maxPayload = 240
    /// Largest unencoded frame: header + payload + CRC.
    public static let maxRawFrame = headerSize + maxPayload + crcSize
    /// Largest COBS-encoded frame, without the 0x00 delimiter.
    public static let maxEncodedFrame = maxRawFrame + 1
    /// Largest frame on the wire, delimiter included.
    public static let maxWireFrame = maxEncodedFrame + 1
    /// Frame delimiter.
    public static let delimiter: UInt8 = 0x00
}

/// Message type codes. Host-to-board codes are below 0x80, board-to-host codes at or above.
public enum MessageType: UInt8, Sendable, CaseIterable {
    case hello = 0x01
    case configure = 0x02
    case clockRequest = 0x03
    case frames = 0x04
    case start = 0x05
    case stop = 0x06
    case heartbeat = 0x07
    /// Optional (INFO capability bit 2): asks for LIMITS.
    case limitsRequest = 0x08
    /// Optional (INFO capability bit 3): FRAMES that overwrite buffered frames not yet output.
    case replace = 0x09
    /// Optional (INFO capability bit 4, revision 1.5): start, change or stop sampling the vibration sensor.
    case sense = 0x0A

    case info = 0x81
    case clock = 0x83
    case status = 0x84
    case nak = 0x85
    case played = 0x86
    /// Optional (INFO capability bit 2): the motor's drive ceiling and overdrive budget.
    case limits = 0x87
    /// Optional (INFO capability bit 4): the answer to SENSE.
    case sensor = 0x88
    /// Optional (INFO capability bit 4): a batch of accelerometer samples.
    case samples = 0x89
}
