// Host-to-board messages: the enum, payload encoding and strict decoding.
// SPDX-License-Identifier: Apache-2.0

/// A message the host sends to the board.
public enum HostMessage: Sendable, Equatable {
    case hello
    /// HELLO carrying the highest revision of version 1 the host reads (revision 1.2 on): the board answers
    /// INFO with its extension, which announces the board's revision (protocol.md section 10).
    case helloRevision(UInt8)
    case configure(Configure)
    case clockRequest(token: UInt32)
    /// CLOCK_REQ with `hold_ms` (revision 1.4): the board answers `holdMs` ms after the request arrived, with
    /// the ticks it held it (`BoardMessage.clockHeld`), so a host can send each request as the last answer
    /// comes in. Only to a board that announced revision 1.4 or later (protocol.md section 4).
    case clockRequestHeld(token: UInt32, holdMs: UInt8)
    case frames(FramesBlock)
    case start(Start)
    /// Stop before frame `atIndex` plays; `HostMessage.stopNow` stops at once.
    case stop(atIndex: UInt32)
    case heartbeat
    /// Asks for LIMITS (only boards with `Info.capLimits` know it; others answer NAK unknown_type).
    case limitsRequest
    /// Like FRAMES, but values overwrite frames buffered and not yet output (live changes to a breath).
    case replace(FramesBlock)
    /// SENSE (revision 1.5, only boards with `Info.Capabilities.sensor`): sample the vibration sensor at
    /// `rateHz` (0 stops), on the `axes` bits (`Sense.axisX` ...), `batch` samples per SAMPLES.
    case sense(rateHz: UInt16, axes: UInt8, batch: UInt8)

    /// `stop(atIndex:)` value meaning "motor off now".
    public static let stopNow: UInt32 = 0xFFFF_FFFF

    public var type: MessageType {
        switch self {
        case .hello, .helloRevision: .hello
        case .configure: .configure
        case .clockRequest, .clockRequestHeld: .clockRequest
        case .frames: .frames
        case .start: .start
        case .stop: .stop
        case .heartbeat: .heartbeat
        case .limitsRequest: .limitsRequest
        case .replace: .replace
        case .sense: .sense
        }
    }

    /// The payload bytes of this message.
    public func payload() -> FixedBytes {
        var p = FixedBytes()
        switch self {
        case .hello, .heartbeat, .limitsRequest:
            break
        case .helloRevision(let revision):
            p.append(revision)
        case .configure(let c):
            p.appendLE16(c.frameRateHz)
            p.append(c.dutyFormat.rawValue)
            p.appendLE16(c.failsafeMs)
            p.appendLE16(c.lraResonanceDeciHz)
            p.append(c.flags)
            p.appendLE16(c.reportEvery)
        case .clockRequest(let token):
            p.appendLE32(token)
        case .clockRequestHeld(let token, let holdMs):
            p.appendLE32(token)
            p.append(holdMs)
        case .frames(let f), .replace(let f):
            p.appendLE32(f.firstIndex)
            p.append(f.format.rawValue)
            p.append(UInt8(f.values.count))
            for i in 0..<f.values.count {
                if f.format == .u8 { p.append(UInt8(truncatingIfNeeded: f.values[i])) }
                else { p.appendLE16(f.values[i]) }
            }
        case .start(let s):
            p.appendLE32(s.anchorIndex)
            p.appendLE64(s.anchorTick)
            p.appendLE64(s.periodQ32)
        case .stop(let index):
            p.appendLE32(index)
        case .sense(let rate, let axes, let batch):
            p.appendLE16(rate)
            p.append(axes)
            p.append(batch)
        }
        return p
    }

    /// The complete wire frame (COBS, delimiter included).
    public func encode(seq: UInt8, into wire: inout FixedBytes) -> Bool {
        Packet(type: type.rawValue, seq: seq, payload: payload()).encode(into: &wire)
    }

    /// Decodes a packet as a host-to-board message; sizes must match exactly.
    public init(_ packet: borrowing Packet) throws(WireError) {
        guard let type = MessageType(rawValue: packet.type), type.rawValue < 0x80 else {
            throw .unknownType(packet.type)
        }
        let p = packet.payload
        func need(_ n: Int) throws(WireError) {
            if p.count != n { throw .badPayload(type) }
        }
        switch type {
        case .hello:
            if p.count == 1 {  // revision 1.2: the host names the highest revision it reads
                self = .helloRevision(p[0])
                return
            }
            try need(0)
            self = .hello
        case .heartbeat:
            try need(0)
            self = .heartbeat
        case .configure:
            try need(Configure.payloadSize)
            guard let format = DutyFormat(rawValue: p[2]) else { throw .badPayload(type) }
            self = .configure(Configure(frameRateHz: p.le16(at: 0), dutyFormat: format,
                                        failsafeMs: p.le16(at: 3), lraResonanceDeciHz: p.le16(at: 5),
                                        flags: p[7], reportEvery: p.le16(at: 8)))
        case .clockRequest:
            if p.count == 5 {  // revision 1.4: hold_ms
                self = .clockRequestHeld(token: p.le32(at: 0), holdMs: p[4])
                return
            }
            try need(4)
            self = .clockRequest(token: p.le32(at: 0))
        case .frames, .replace:
            guard p.count >= FramesBlock.headerSize, let format = DutyFormat(rawValue: p[4]) else {
                throw .badPayload(type)
            }
            let n = Int(p[5])
            guard n >= 1, n <= format.maxPerMessage else { throw .badPayload(type) }
            try need(FramesBlock.headerSize + n * format.bytesPerValue)
            var block = FramesBlock(firstIndex: p.le32(at: 0), format: format)
            let valid = p.withUnsafeBytes { bytes -> Bool in
                for i in 0..<n {
                    let at = FramesBlock.headerSize + i * format.bytesPerValue
                    let v = format == .u8 ? UInt16(bytes[at]) : UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
                    if format == .i16 && v == 0x8000 { return false }  // -32768 is not allowed
                    block.values.append(v)
                }
                return true
            }
            guard valid else { throw .badPayload(type) }
            self = type == .replace ? .replace(block) : .frames(block)
        case .start:
            try need(Start.payloadSize)
            self = .start(Start(anchorIndex: p.le32(at: 0), anchorTick: p.le64(at: 4), periodQ32: p.le64(at: 12)))
        case .stop:
            try need(4)
            self = .stop(atIndex: p.le32(at: 0))
        case .limitsRequest:
            try need(0)
            self = .limitsRequest
        case .sense:
            try need(Sense.payloadSize)
            self = .sense(rateHz: p.le16(at: 0), axes: p[2], batch: p[3])
        default:
            throw .unknownType(packet.type)
        }
    }
}
