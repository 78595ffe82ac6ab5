// A BoardCore driven by hand in board ticks: send host messages, collect replies and output.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import MotorWire

/// A motor port that records every level change, for asserting exact output ticks.
struct RecordingPort: MotorPort {
    var log: [(tick: UInt64, level: Int16)] = []
    mutating func schedule(level: Int16, at tick: UInt64) { log.append((tick, level)) }
    mutating func off(at tick: UInt64) {
        while let last = log.last, last.tick > tick { log.removeLast() }
        if log.last?.level != 0 { log.append((tick, 0)) }
    }
}

struct Bench {
    var core: BoardCore<RecordingPort>
    var seq: UInt8 = 0
    var replies: [BoardMessage] = []
    var hostDecoder = FrameDecoder()

    static func info(motor: MotorKind = .erm, capacity: UInt16 = 64, caps: UInt8 = Info.capReverse) -> Info {
        Info(firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0, motorKind: motor, pwmBits: 16, capabilities: caps,
             bufferCapacity: capacity, minFrameRateHz: 50, maxFrameRateHz: 1000, clockHz: 1_000_000,
             uniqueID: 7, lraResonanceDeciHz: motor == .lra ? 2000 : 0, name: BoardName("bench"))
    }

    init(info: Info = Bench.info(), lead: UInt64 = 0, limits: Limits? = nil) {
        core = BoardCore(port: RecordingPort(), info: info, outputLeadTicks: lead, limits: limits)
        core.boot(now: 0)
        collect()
    }

    /// Encodes `m`, feeds it byte by byte at `now`, then collects the replies.
    @discardableResult
    mutating func send(_ m: HostMessage, at now: UInt64) -> [BoardMessage] {
        var wire = FixedBytes()
        precondition(m.encode(seq: seq, into: &wire))
        seq &+= 1
        for i in 0..<wire.count { core.receive(wire[i], now: now) }
        return collect()
    }

    /// Services the core at every tick in `ticks` (a sweep of board time).
    mutating func run(_ ticks: StrideTo<UInt64>) {
        for t in ticks { core.service(now: t) }
        collect()
    }

    @discardableResult
    mutating func collect() -> [BoardMessage] {
        let out = drainMessages(&core, &hostDecoder)
        replies += out
        return out
    }

    var played: [Played] { replies.compactMap { if case .played(let p) = $0 { return p } else { return nil } } }
    var naks: [Nak] { replies.compactMap { if case .nak(let n) = $0 { return n } else { return nil } } }
    var lastStatus: Status? { replies.compactMap { if case .status(let s) = $0 { return s } else { return nil } }.last }

    static func frames(_ first: UInt32, _ values: [UInt16], format: DutyFormat = .u8) -> HostMessage {
        var v = DutyValues()
        for x in values { v.append(x) }
        return .frames(FramesBlock(firstIndex: first, format: format, values: v))
    }

    /// CONFIGURE at 1000 Hz (1000 ticks per frame on the 1 MHz clock), u8, failsafe 200 ms.
    mutating func configure(at now: UInt64 = 0, format: DutyFormat = .u8, failsafeMs: UInt16 = 200,
                            reportEvery: UInt16 = 4, flags: UInt8 = 0) {
        send(.configure(Configure(frameRateHz: 1000, dutyFormat: format, failsafeMs: failsafeMs, flags: flags,
                                  reportEvery: reportEvery)), at: now)
    }

    mutating func start(anchorTick: UInt64, at now: UInt64, periodTicks: UInt64 = 1000) {
        send(.start(Start(anchorIndex: 0, anchorTick: anchorTick, periodQ32: periodTicks << 32)), at: now)
    }
}

/// Every message `core` has to send, through the host's decoder (as a host reads the wire).
func drainMessages<P: MotorPort>(_ core: inout BoardCore<P>, _ decoder: inout FrameDecoder) -> [BoardMessage] {
    var out: [BoardMessage] = []
    var wire = FixedBytes()
    while core.nextOutgoing(into: &wire) {
        for i in 0..<wire.count {
            if case .packet(let p)? = decoder.push(wire[i]), let m = try? BoardMessage(p) { out.append(m) }
        }
    }
    return out
}
