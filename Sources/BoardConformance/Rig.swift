// The conformance suite's hands on a board: send messages or raw bytes, collect what comes back within a
// time, and the few exchanges every clause needs (status, configure, the board's clock now). Nothing
// here knows how a board is built: only the port.
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import MotorWire
import SerialLink

/// A clause's expectation that did not hold; its text is the one line the report shows.
public struct ClauseFailure: Error, CustomStringConvertible {
    public var description: String
}

/// Fails the running clause with `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(ClauseFailure) {
    if !condition { throw ClauseFailure(description: message()) }
}

/// The conformance suite's hands on a board: sends messages or raw bytes (bad frames, noise), collects what
/// comes back within a time, and makes the few exchanges every clause needs (status, configure, the board's
/// clock now). Nothing here knows how a board is built: only its port.
///
///     let rig = try Rig(link: port)  // waits for the board's HELLO
///     print(rig.info.displayName, rig.announced)
///     rig.heldTo = .r1_0             // hold it to an older revision
public final class Rig {
    let channel: BoardChannel
    let clock: HostClock
    /// What the board said it is (HELLO at the start of the run; with its revision when it announces one).
    public let info: Info
    /// The revision the board announced (1.0 when it announces none: it predates revision 1.2).
    public let announced: Revision
    /// The revision the clauses hold the board to: the announced one unless set otherwise.
    public var heldTo: Revision
    /// Sequence numbers for hand-made frames (the channel numbers its own messages).
    private var rawSeq: UInt8 = 200

    /// Opens a channel on `link` and waits up to `bootWaitMs` for the board's HELLO (and its announced INFO);
    /// throws when none comes.
    public init(link: ByteLink, clock: HostClock = SystemClock(), bootWaitMs: Int = 3000) throws {
        channel = BoardChannel(link: link, clock: clock)
        self.clock = clock
        let plain = try channel.hello(timeoutMs: bootWaitMs)
        info = try channel.announcedInfo() ?? plain
        announced = Revision.announced(by: info)
        heldTo = announced
    }

    /// Whether the board is held to what `revision` introduced (for checks a later revision added to a clause).
    func holds(_ revision: Revision) -> Bool { heldTo >= revision }

    var nowNs: UInt64 { clock.nowNs() }
    var clockHz: UInt64 { UInt64(info.clockHz) }
    func ticks(ms: Double) -> UInt64 { UInt64(ms * Double(info.clockHz) / 1000) }

    /// Sends `m`; returns its sequence number.
    @discardableResult
    func send(_ m: HostMessage) throws -> UInt8 { try channel.send(m) }

    /// Sends bytes exactly as given (bad frames, noise).
    func sendRaw(_ bytes: [UInt8]) throws {
        do { try channel.link.write(bytes) } catch { throw SessionError.link(error) }
    }

    /// A hand-made frame: any version, type, payload; optionally a broken CRC.
    func rawFrame(version: UInt8 = Wire.version, type: UInt8, payload: [UInt8], lengthField: UInt8? = nil,
                  corruptCRC: Bool = false) -> [UInt8] {
        var raw: [UInt8] = [version, type, rawSeq, lengthField ?? UInt8(payload.count)] + payload
        rawSeq &+= 1
        var crc = CRC16()
        for b in raw { crc.update(b) }
        let value = crc.value ^ (corruptCRC ? 0x0101 : 0)
        raw += [UInt8(value & 0xFF), UInt8(value >> 8)]
        return cobs(raw) + [0]
    }

    /// COBS over a byte array (the codec's own works on fixed buffers of a valid frame's size).
    func cobs(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0]
        var code = 1, codeAt = 0
        for b in raw {
            if b == 0 {
                out[codeAt] = UInt8(code)
                codeAt = out.count
                out.append(0)
                code = 1
            } else {
                out.append(b)
                code += 1
                if code == 0xFF {
                    out[codeAt] = UInt8(code)
                    codeAt = out.count
                    out.append(0)
                    code = 1
                }
            }
        }
        out[codeAt] = UInt8(code)
        return out
    }

    /// Every message that arrives within `ms` (returns early once `until` accepts one).
    func collect(ms: Int, until: (BoardMessage) -> Bool = { _ in false }) throws -> [BoardMessage] {
        let deadline = nowNs + UInt64(ms) * 1_000_000
        var out: [BoardMessage] = []
        while true {
            let t = nowNs
            guard t < deadline else { break }
            let left = Int((deadline - t) / 1_000_000) + 1
            let got = try channel.receive(timeoutMs: min(left, 20))
            out += got
            if got.contains(where: until) { break }
        }
        return out
    }

    /// Sends `m` and collects until its answer (a STATUS or NAK naming its seq, or INFO/CLOCK for those)
    /// and `settleMs` more; everything that came is returned, in order.
    func exchange(_ m: HostMessage, timeoutMs: Int = 500, settleMs: Int = 0) throws -> [BoardMessage] {
        let seq = try send(m)
        var got = try collect(ms: timeoutMs) { answers(seq: seq, $0) }
        if settleMs > 0 { got += try collect(ms: settleMs) }
        return got
    }

    /// Whether `message` answers the host message with `seq`.
    func answers(seq: UInt8, _ message: BoardMessage) -> Bool {
        switch message {
        case .status(let s): return s.ackSeq == seq
        case .nak(let n): return n.refSeq == seq
        case .info, .clock, .clockHeld, .limits, .sensor: return true  // LIMITS, SENSOR: each answers its one request
        case .played, .samples: return false
        }
    }

    /// The STATUS answering a HEARTBEAT.
    func status() throws -> Status {
        let seq = try send(.heartbeat)
        let got = try collect(ms: 500) { answers(seq: seq, $0) }
        for case .status(let s) in got where s.ackSeq == seq { return s }
        throw ClauseFailure(description: "HEARTBEAT: expected STATUS within 500 ms, got \(got.brief)")
    }

    /// The board's clock now (one CLOCK exchange, taken at the middle of its round trip).
    func boardNow() throws -> UInt64 {
        let token = UInt32.random(in: 1...UInt32.max)
        try send(.clockRequest(token: token))
        let got = try collect(ms: 500) { if case .clock(let t, _) = $0 { return t == token } else { return false } }
        for case .clock(let t, let tick) in got where t == token { return tick }
        throw ClauseFailure(description: "CLOCK_REQ: expected CLOCK within 500 ms, got \(got.brief)")
    }

    /// A frame rate the board takes: 250 Hz when it can, else its lowest.
    var rate: UInt16 { (info.minFrameRateHz...info.maxFrameRateHz).contains(250) ? 250 : info.minFrameRateHz }

    /// Board ticks per frame at `rate`, in 32.32 (nominal: the suite does not correct for drift).
    var periodQ32: UInt64 { Start.periodQ32(clockHz: info.clockHz, frameRate: Int(rate)) }

    /// CONFIGURE, expecting the STATUS that accepts it.
    @discardableResult
    func configure(format: DutyFormat = .u8, failsafeMs: UInt16 = 1000, reportEvery: UInt16 = 10,
                   flags: UInt8 = 0) throws -> Status {
        let c = Configure(frameRateHz: rate, dutyFormat: format, failsafeMs: failsafeMs, flags: flags, reportEvery: reportEvery)
        let seq = try send(.configure(c))
        let got = try collect(ms: 500) { answers(seq: seq, $0) }
        for m in got {
            if case .status(let s) = m, s.ackSeq == seq { return s }
            if case .nak(let n) = m, n.refSeq == seq { throw ClauseFailure(description: "CONFIGURE: expected STATUS, got \(n.brief)") }
        }
        throw ClauseFailure(description: "CONFIGURE: expected STATUS within 500 ms, got \(got.brief)")
    }

    /// FRAMES of `values` from `first`, in as many messages as they need; returns every reply.
    @discardableResult
    func frames(from first: UInt32, _ values: [UInt16], format: DutyFormat = .u8, settleMs: Int = 30) throws -> [BoardMessage] {
        var replies: [BoardMessage] = []
        var at = 0
        while at < values.count {
            let n = min(format.maxPerMessage, values.count - at)
            var block = FramesBlock(firstIndex: first &+ UInt32(at), format: format)
            for v in values[at..<(at + n)] { block.values.append(v) }
            replies += try exchange(.frames(block))
            at += n
        }
        if settleMs > 0 { replies += try collect(ms: settleMs) }
        return replies
    }

    /// STOP now and whatever it brings; leaves the board configured (or as it was, in idle/failsafe).
    func stopNow() throws { _ = try exchange(.stop(atIndex: HostMessage.stopNow), settleMs: 20) }

    /// Keeps the board fed with HEARTBEATs for `ms`, collecting everything it sends meanwhile.
    func keepAlive(ms: Int, every: Int = 40, until: (BoardMessage) -> Bool = { _ in false }) throws -> [BoardMessage] {
        let deadline = nowNs + UInt64(ms) * 1_000_000
        var out: [BoardMessage] = []
        while true {
            let t = nowNs
            guard t < deadline else { break }
            try send(.heartbeat)
            let got = try collect(ms: min(every, Int((deadline - t) / 1_000_000) + 1))
            out += got
            if got.contains(where: until) { break }
        }
        return out
    }
}

extension Array where Element == BoardMessage {
    var statuses: [Status] { compactMap { if case .status(let s) = $0 { return s } else { return nil } } }
    var naks: [Nak] { compactMap { if case .nak(let n) = $0 { return n } else { return nil } } }
    var played: [Played] { compactMap { if case .played(let p) = $0 { return p } else { return nil } } }
}
