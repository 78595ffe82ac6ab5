// Board-to-host messages: the enum, payload encoding and strict decoding.
// SPDX-License-Identifier: Apache-2.0

/// A message the board sends to the host.
public enum BoardMessage: Sendable, Equatable {
    case info(Info)
    case clock(token: UInt32, tick: UInt64)
    /// The answer to a CLOCK_REQ with `hold_ms` (revision 1.4): `tick` when the answer was made, `heldTicks`
    /// from the request's arrival to `tick` (so the request arrived at `tick - heldTicks`).
    case clockHeld(token: UInt32, tick: UInt64, heldTicks: UInt32)
    case status(Status)
    case nak(Nak)
    case played(Played)
    /// Answer to LIMITS_REQ (boards with `Info.capLimits`).
    case limits(Limits)
    /// Answer to SENSE (boards with `Info.Capabilities.sensor`, revision 1.5): what the sensor samples now.
    case sensor(SensorState)
    /// A batch of accelerometer samples on the board clock (while sampling).
    case samples(SampleBatch)

    /// The revision whose boards answer a CLOCK_REQ with `hold_ms` (`clockHeld`): 1.4.
    public static let clockHoldRevision: UInt8 = 4

    public var type: MessageType {
        switch self {
        case .info: .info
        case .clock, .clockHeld: .clock
        case .status: .status
        case .nak: .nak
        case .played: .played
        case .limits: .limits
        case .sensor: .sensor
        case .samples: .samples
        }
    }

    public func payload() -> FixedBytes {
        var p = FixedBytes()
        switch self {
        case .info(let i):
            p.append(i.protocolVersion)
            p.append(i.firmwareMajor)
            p.append(i.firmwareMinor)
            p.append(i.firmwarePatch)
            p.append(i.motorKind.rawValue)
            p.append(i.pwmBits)
            p.append(i.capabilities)
            p.appendLE16(i.bufferCapacity)
            p.appendLE16(i.minFrameRateHz)
            p.appendLE16(i.maxFrameRateHz)
            p.appendLE32(i.clockHz)
            p.appendLE64(i.uniqueID)
            p.appendLE16(i.lraResonanceDeciHz)
            p.append(UInt8(i.name.count))
            for k in 0..<i.name.count { p.append(i.name[k]) }
            if let revision = i.revision { p.append(revision) }  // the extension (section 10)
        case .clock(let token, let tick):
            p.appendLE32(token)
            p.appendLE64(tick)
        case .clockHeld(let token, let tick, let held):
            p.appendLE32(token)
            p.appendLE64(tick)
            p.appendLE32(held)
        case .status(let s):
            p.append(s.state.rawValue)
            p.append(s.ackSeq)
            p.appendLE16(s.fill)
            p.appendLE16(s.free)
            p.appendLE32(s.nextExpected)
            p.appendLE32(s.nextPlay)
            p.appendLE32(s.underruns)
            p.appendLE32(s.lateFrames)
            p.appendLE32(s.duplicateFrames)
            p.appendLE16(s.rxCRCErrors)
            p.appendLE16(s.rxOtherErrors)
            p.appendLE16(s.failsafeTrips)
            p.appendLE64(s.tick)
            p.appendLE16(UInt16(bitPattern: s.output))
            if let lost = s.rxLostBytes { p.appendLE32(lost) }  // revision 1.3 (section 10)
        case .nak(let n):
            p.append(n.code.rawValue)
            p.append(n.refSeq)
            p.append(n.refType)
            p.appendLE32(n.detail)
        case .played(let r):
            p.appendLE32(r.firstIndex)
            p.appendLE16(r.count)
            p.appendLE16(r.lateCount)
            p.appendLE32(r.maxLateTicks)
            p.appendLE16(r.dutyCRC)
            p.appendLE64(r.firstTick)
        case .limits(let l):
            l.encode(into: &p)
        case .sensor(let s):
            s.encode(into: &p)
        case .samples(let b):
            b.encode(into: &p)
        }
        return p
    }

    public func encode(seq: UInt8, into wire: inout FixedBytes) -> Bool {
        Packet(type: type.rawValue, seq: seq, payload: payload()).encode(into: &wire)
    }

    /// Decodes a packet as a board-to-host message; sizes must match exactly.
    public init(_ packet: borrowing Packet) throws(WireError) {
        guard let type = MessageType(rawValue: packet.type), type.rawValue >= 0x80 else {
            throw .unknownType(packet.type)
        }
        let p = packet.payload
        func need(_ n: Int) throws(WireError) {
            if p.count != n { throw .badPayload(type) }
        }
        switch type {
        case .info:
            guard p.count >= Info.fixedSize else { throw .badPayload(type) }
            let nameLength = Int(p[27])
            guard nameLength <= BoardName.capacity, let kind = MotorKind(rawValue: p[4]) else {
                throw .badPayload(type)
            }
            // The extension after the name is laid out for the lower of the board's revision and ours, the
            // revision HELLO announced: its size is exact either way.
            let end = Info.fixedSize + nameLength
            var revision: UInt8? = nil
            if p.count > end {
                revision = p[end]
                try need(end + Info.extensionSize(revision: min(p[end], Wire.revision)))
            } else {
                try need(end)
            }
            var name = BoardName()
            for k in 0..<nameLength { name.append(p[Info.fixedSize + k]) }
            self = .info(Info(protocolVersion: p[0], firmwareMajor: p[1], firmwareMinor: p[2],
                              firmwarePatch: p[3], motorKind: kind, pwmBits: p[5], capabilities: p[6],
                              bufferCapacity: p.le16(at: 7), minFrameRateHz: p.le16(at: 9),
                              maxFrameRateHz: p.le16(at: 11), clockHz: p.le32(at: 13),
                              uniqueID: p.le64(at: 17), lraResonanceDeciHz: p.le16(at: 25), name: name, revision: revision))
        case .clock:
            if p.count == 16 {  // revision 1.4: the answer to a held request
                self = .clockHeld(token: p.le32(at: 0), tick: p.le64(at: 4), heldTicks: p.le32(at: 12))
                return
            }
            try need(12)
            self = .clock(token: p.le32(at: 0), tick: p.le64(at: 4))
        case .status:
            // Revision 1.3 appends rx_lost_bytes for a host that named 1.3 or later: either exact size.
            if p.count != Status.payloadSizeLost { try need(Status.payloadSize) }
            guard let state = BoardState(rawValue: p[0]) else { throw .badPayload(type) }
            self = .status(Status(state: state, ackSeq: p[1], fill: p.le16(at: 2), free: p.le16(at: 4),
                                  nextExpected: p.le32(at: 6), nextPlay: p.le32(at: 10),
                                  underruns: p.le32(at: 14), lateFrames: p.le32(at: 18),
                                  duplicateFrames: p.le32(at: 22), rxCRCErrors: p.le16(at: 26),
                                  rxOtherErrors: p.le16(at: 28), failsafeTrips: p.le16(at: 30),
                                  tick: p.le64(at: 32), output: Int16(bitPattern: p.le16(at: 40)),
                                  rxLostBytes: p.count == Status.payloadSizeLost ? p.le32(at: 42) : nil))
        case .nak:
            try need(Nak.payloadSize)
            guard let code = NakCode(rawValue: p[0]) else { throw .badPayload(type) }
            self = .nak(Nak(code: code, refSeq: p[1], refType: p[2], detail: p.le32(at: 3)))
        case .played:
            try need(Played.payloadSize)
            self = .played(Played(firstIndex: p.le32(at: 0), count: p.le16(at: 4), lateCount: p.le16(at: 6),
                                  maxLateTicks: p.le32(at: 8), dutyCRC: p.le16(at: 12), firstTick: p.le64(at: 14)))
        case .limits:
            try need(Limits.payloadSize)
            self = .limits(Limits(decoding: p))
        case .sensor:
            try need(SensorState.payloadSize)
            self = .sensor(SensorState(decoding: p))
        case .samples:
            // k axes per sample from the size and count (SampleBatch): exact for k in 1...3, else refused.
            guard let b = SampleBatch(decoding: p) else { throw .badPayload(type) }
            self = .samples(b)
        default:
            throw .unknownType(packet.type)
        }
    }
}
