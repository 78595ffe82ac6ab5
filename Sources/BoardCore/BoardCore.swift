// The board's state and its answers to host messages; playback lives in BoardCore+Playback.swift.
// SPDX-License-Identifier: Apache-2.0

#if canImport(MotorWire)
import MotorWire
#endif

/// The motor board's protocol logic, independent of hardware. Feed it received bytes with
/// `receive(_:now:)`, call `service(now:)` at least once per frame period (and whenever
/// `nextWake(now:)` says), and send what `nextOutgoing(into:)` yields. All times are board ticks.
public struct BoardCore<Port: MotorPort> {
    public var port: Port
    public let info: Info
    /// How far ahead of a frame's tick the core hands it to the port (a preload register or a
    /// DMA buffer on hardware). 0 = output exactly when serviced.
    public let outputLeadTicks: UInt64
    /// The motor's drive ceiling (DriveLimit.swift), or nil for a board without one.
    public let limits: Limits?
    /// Enforces `limits` on every output change.
    public internal(set) var overdrive: OverdriveGuard?

    public internal(set) var state: BoardState = .idle
    public internal(set) var config: Configure?
    var ring: FrameRing
    var timebase: Timebase?
    var carrier: Timebase?
    var carrierIndex: UInt32 = 0
    var stopAt: UInt32?
    public internal(set) var nextExpected: UInt32 = 0
    public internal(set) var nextPlay: UInt32 = 0
    public internal(set) var envelope: Int16 = 0
    /// The level last handed to the port (with an output lead it takes effect up to the lead later).
    public internal(set) var output: Int16 = 0
    /// What is being output at each tick, for STATUS (`output` may still be ahead of the clock).
    var outputs = OutputQueue()
    var polarity: Int16 = 1
    /// Tick of the last valid message received (what the failsafe counts from).
    public internal(set) var lastValidRx: UInt64 = 0

    public internal(set) var underruns: UInt32 = 0
    public internal(set) var lateFrames: UInt32 = 0
    public internal(set) var duplicateFrames: UInt32 = 0
    public internal(set) var failsafeTrips: UInt16 = 0
    var decoder = FrameDecoder()
    var tally = PlayedTally()
    var outbox = Outbox()
    var txSeq: UInt8 = 0
    /// The revision the host named in its last HELLO (nil: none since boot, or a plain HELLO). Payloads a
    /// later revision extends are sent in the layout of the lower of it and `Wire.revision` (section 10).
    public internal(set) var hostRevision: UInt8?
    /// Received bytes the hardware lost before they reached `receive` (UART overruns, receive-ring
    /// overflows), since boot, wrapping: the board's hardware layer keeps it current. Reported in STATUS
    /// to a host of revision 1.3 or later (section 10).
    public var rxLostBytes: UInt32 = 0
    /// A CLOCK_REQ with `hold_ms` (revision 1.4) waiting for its answer: `service` answers it at `due`.
    public internal(set) var heldClock: HeldClock?
    /// The vibration sensor's sampling (BoardCore+Sensing.swift): off at boot and until a SENSE.
    public internal(set) var sampling = Sampling()

    /// A board with `limits` should also set `Info.capLimits` in `info`: it answers LIMITS_REQ either way.
    /// Capability bit 4 (the vibration sensor) is the port's to say: set exactly when `port.sensor` is not nil.
    public init(port: Port, info: Info, outputLeadTicks: UInt64 = 0, limits: Limits? = nil) {
        self.port = port
        var info = info
        if port.sensor != nil { info.capabilities |= Info.capSensor } else { info.capabilities &= ~Info.capSensor }
        self.info = info
        self.outputLeadTicks = outputLeadTicks
        self.limits = limits
        self.overdrive = limits.map { OverdriveGuard(limits: $0, clockHz: info.clockHz) }
        self.ring = FrameRing(capacity: Int(info.bufferCapacity))
    }

    /// Call once at power-up: motor off, and the board announces itself with INFO.
    public mutating func boot(now: UInt64) {
        port.off(at: now)
        sampling = Sampling()
        outbox.push(.info(info))
    }

    /// Bytes received by the UART.
    public mutating func receive(_ byte: UInt8, now: UInt64) {
        if byte != Wire.delimiter {  // all but one byte of a frame: just collect it
            decoder.collect(byte)
            return
        }
        switch decoder.push(byte) {
        case nil:
            return
        case .error:
            return  // counted by the decoder; STATUS reports it
        case .packet(let packet):
            do throws(WireError) {
                let message = try HostMessage(packet)
                lastValidRx = now
                handle(message, seq: packet.seq, now: now)
            } catch {
                if case .unknownType(let t) = error {
                    outbox.push(.nak(Nak(code: .unknownType, refSeq: packet.seq, refType: t, detail: UInt32(t))))
                } else {
                    outbox.push(.nak(Nak(code: .badMessage, refSeq: packet.seq, refType: packet.type,
                                         detail: unknownFormat(in: packet))))
                }
                badMessages &+= 1
            }
        }
    }

    var badMessages: UInt32 = 0

    /// The duty_format code of a CONFIGURE or FRAMES that names an unknown one (the NAK's detail), else 0.
    func unknownFormat(in packet: Packet) -> UInt32 {
        let at: Int
        switch packet.type {
        case MessageType.configure.rawValue where packet.payload.count == Configure.payloadSize: at = 2
        case MessageType.frames.rawValue where packet.payload.count >= FramesBlock.headerSize: at = 4
        default: return 0
        }
        return DutyFormat(rawValue: packet.payload[at]) == nil ? UInt32(packet.payload[at]) : 0
    }

    /// Encodes the next queued message, with the board's sequence number, into `wire`.
    public mutating func nextOutgoing(into wire: inout FixedBytes) -> Bool {
        guard let m = outbox.pop() else { return false }
        let ok = m.encode(seq: txSeq, into: &wire)
        txSeq &+= 1
        return ok
    }

    public var hasOutgoing: Bool { outbox.count > 0 }
    /// Messages waiting in the outbox (it holds `Outbox.capacity`).
    public var outgoingCount: Int { outbox.count }

    mutating func handle(_ message: HostMessage, seq: UInt8, now: UInt64) {
        switch message {
        case .hello:
            hostRevision = nil  // a host that does not name its revision reads revision 1.1 payloads
            heldClock = nil  // a new host: a request held for the last one is not answered
            outbox.push(.info(info))
        case .helloRevision(let r):
            hostRevision = r
            heldClock = nil
            var announced = info
            announced.revision = Wire.revision  // its extension laid out for min(r, Wire.revision)
            outbox.push(.info(announced))
        case .heartbeat:
            outbox.push(.status(status(ackSeq: seq, now: now)))
        case .limitsRequest:
            if let overdrive {
                outbox.push(.limits(overdrive.report(now: now, clockHz: info.clockHz)))
            } else {  // what a board without the feature answers
                nak(.unknownType, seq: seq, type: .limitsRequest, detail: UInt32(MessageType.limitsRequest.rawValue))
            }
        case .clockRequest(let token):
            outbox.push(.clock(token: token, tick: now))
        case .clockRequestHeld(let token, let holdMs):
            answerHeldClock(now: now)  // one held at a time: the one still waiting is answered now
            let hold = UInt64(holdMs) * UInt64(info.clockHz) / 1000
            heldClock = HeldClock(token: token, arrived: now, due: now + hold)
            if hold == 0 { answerHeldClock(now: now) }
        case .configure(let c):
            if let reason = rejection(of: c) {
                outbox.push(.nak(Nak(code: .badConfig, refSeq: seq, refType: MessageType.configure.rawValue,
                                     detail: reason)))
                return
            }
            haltPlayback(now: now)
            config = c
            state = .configured
            underruns = 0
            lateFrames = 0
            duplicateFrames = 0
            outbox.push(.status(status(ackSeq: seq, now: now)))
        case .frames(let block):
            accept(block, seq: seq, now: now)
        case .replace(let block):
            accept(block, seq: seq, now: now, replacing: true)
        case .sense(let rate, let axes, let batch):
            handleSense(rateHz: rate, axes: axes, batch: batch, seq: seq, now: now)
        case .start(let s):
            guard config != nil, state != .idle, state != .failsafe else {
                nak(.notConfigured, seq: seq, type: .start, detail: 0)
                return
            }
            guard s.periodQ32 >> 32 > 0 else {
                nak(.badMessage, seq: seq, type: .start, detail: 0)
                return
            }
            timebase = Timebase(anchorIndex: s.anchorIndex, anchorTick: s.anchorTick, periodQ32: s.periodQ32)
            if state == .configured {
                state = .armed
                startCarrier(at: timebase!.due(nextPlay))
            }
            outbox.push(.status(status(ackSeq: seq, now: now)))
        case .stop(let index):
            // STOP now, a STOP while nothing plays, and a STOP at a frame already played all stop at once.
            if index == HostMessage.stopNow || (state != .armed && state != .playing) || indexDistance(index, nextPlay) < 0 {
                haltPlayback(now: now)
            } else {
                stopAt = index
            }
            outbox.push(.status(status(ackSeq: seq, now: now)))
        }
    }

    /// Answers the held CLOCK_REQ, if any: the tick now and the ticks since it arrived.
    mutating func answerHeldClock(now: UInt64) {
        guard let h = heldClock else { return }
        heldClock = nil
        outbox.push(.clockHeld(token: h.token, tick: now, heldTicks: UInt32(truncatingIfNeeded: min(now - h.arrived, UInt64(UInt32.max)))))
    }

    /// Why a CONFIGURE cannot be done (NAK detail), or nil if it can.
    func rejection(of c: Configure) -> UInt32? {
        if c.frameRateHz < info.minFrameRateHz || c.frameRateHz > info.maxFrameRateHz { return 1 }
        if c.failsafeMs < 20 || c.failsafeMs > 10_000 { return 3 }
        return nil
    }

    mutating func nak(_ code: NakCode, seq: UInt8, type: MessageType, detail: UInt32) {
        outbox.push(.nak(Nak(code: code, refSeq: seq, refType: type.rawValue, detail: detail)))
    }

    /// Stores FRAMES values in the ring. Selective repeat: any index inside the window is kept, even past
    /// a hole; `nextExpected` is the first index still missing, and a message that skips past it is
    /// answered with NAK gap naming the hole (so the host resends just that). With `replacing` (REPLACE),
    /// a value overwrites a frame buffered and not yet output instead of counting as a duplicate.
    mutating func accept(_ block: FramesBlock, seq: UInt8, now: UInt64, replacing: Bool = false) {
        let kind: MessageType = replacing ? .replace : .frames
        guard let c = config, state == .configured || state == .armed || state == .playing else {
            nak(.notConfigured, seq: seq, type: kind, detail: 0)
            return
        }
        guard block.format == c.dutyFormat else {
            nak(.badMessage, seq: seq, type: kind, detail: UInt32(block.format.rawValue))
            return
        }
        let skipped = indexDistance(block.firstIndex, nextExpected) > 0
        // One pointer over the values (reading them one by one copies all 234 per read on a Cortex-M).
        block.values.withUnsafeValues { values in
            for k in 0..<values.count {
                let index = block.firstIndex &+ UInt32(k)
                if indexDistance(index, nextPlay) < 0 {
                    lateFrames &+= 1
                } else if Int(indexDistance(index, nextPlay)) >= ring.capacity {
                    advanceExpected()
                    nak(.bufferFull, seq: seq, type: kind, detail: nextExpected)
                    break
                } else if ring.has(index) && !replacing {
                    duplicateFrames &+= 1
                } else {
                    ring.store(values[k], at: index)
                }
            }
        }
        advanceExpected()
        if skipped && indexDistance(block.firstIndex, nextExpected) > 0 {
            nak(.gap, seq: seq, type: kind, detail: nextExpected)
        }
        outbox.push(.status(status(ackSeq: seq, now: now)))
    }

    /// Moves `nextExpected` past every received frame.
    mutating func advanceExpected() {
        if indexDistance(nextExpected, nextPlay) < 0 { nextExpected = nextPlay }
        while ring.has(nextExpected) && Int(indexDistance(nextExpected, nextPlay)) < ring.capacity {
            nextExpected &+= 1
        }
    }

    /// Frames received in order and not yet played (frames past a hole are held but not counted).
    @inline(__always)
    public var fill: Int { max(0, Int(indexDistance(nextExpected, nextPlay))) }

    @inline(__always)  // out of line, a call from a mutating method copies the whole core first
    public func status(ackSeq: UInt8, now: UInt64) -> Status {
        let errs = decoder.errors
        return Status(state: state, ackSeq: ackSeq, fill: UInt16(fill), free: UInt16(ring.capacity - fill),
                      nextExpected: nextExpected, nextPlay: nextPlay, underruns: underruns,
                      lateFrames: lateFrames, duplicateFrames: duplicateFrames,
                      rxCRCErrors: UInt16(truncatingIfNeeded: errs.badCRC),
                      rxOtherErrors: UInt16(truncatingIfNeeded: errs.total &- errs.badCRC &+ badMessages),
                      failsafeTrips: failsafeTrips, tick: now, output: outputs.level(at: now),
                      rxLostBytes: min(hostRevision ?? 0, Wire.revision) >= Status.lostBytesRevision ? rxLostBytes : nil)
    }
}

/// A CLOCK_REQ the board holds before answering (revision 1.4, `hold_ms`): its token, the tick it arrived,
/// and the tick its answer is due.
public struct HeldClock: Sendable, Equatable {
    public let token: UInt32
    public let arrived: UInt64
    public let due: UInt64
}
