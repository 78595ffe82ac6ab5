// Prepare: HELLO -> INFO, CONFIGURE -> STATUS, clock sync, before any frame is sent.

import MotorWire
import SerialLink

/// What prepare learned.
public struct Prepared: Sendable {
    public var info: Info
    public var config: Configure
    public var clock: ClockEstimate
    public var prepareNs: UInt64
}

extension BoardChannel {
    /// Asks the board to announce itself and waits for INFO (it also announces itself at boot).
    public func hello(timeoutMs: Int) throws(SessionError) -> Info {
        try resync()
        try send(.hello)
        let info = try waitFor("INFO", timeoutMs: timeoutMs) { m throws(SessionError) -> Info? in
            if case .info(let i) = m { return i }
            return nil
        }
        guard info.protocolVersion == Wire.version else {
            throw .incompatible("board speaks protocol v\(info.protocolVersion), this host v\(Wire.version)")
        }
        return info
    }

    /// Sends CONFIGURE and waits for the board's STATUS (or its NAK).
    public func configure(_ c: Configure, timeoutMs: Int) throws(SessionError) {
        let s = try send(.configure(c))
        _ = try waitFor("CONFIGURE reply", timeoutMs: timeoutMs) { m throws(SessionError) -> Bool? in
            switch m {
            case .status(let st) where st.ackSeq == s: return true
            case .nak(let n) where n.refSeq == s: throw .refused(n)
            default: return nil
            }
        }
    }

    /// One CLOCK exchange.
    public func clockSample(token: UInt32, timeoutMs: Int, other: (BoardMessage) -> Void = { _ in })
        throws(SessionError) -> ClockSample
    {
        let sent = MonotonicClock.nowNs()
        try send(.clockRequest(token: token))
        let tick = try waitFor("CLOCK reply", timeoutMs: timeoutMs, other: other) { m throws(SessionError) -> UInt64? in
            if case .clock(let t, let tick) = m, t == token { return tick }
            return nil
        }
        return ClockSample(sentNs: sent, receivedNs: MonotonicClock.nowNs(), tick: tick)
    }

    /// HELLO, CONFIGURE and clock sync, timed.
    public func prepare(options o: SessionOptions) throws(SessionError) -> Prepared {
        let t0 = MonotonicClock.nowNs()
        let info = try hello(timeoutMs: o.helloTimeoutMs)
        guard o.frameRate >= Int(info.minFrameRateHz), o.frameRate <= Int(info.maxFrameRateHz) else {
            throw .incompatible("frame rate \(o.frameRate) Hz is outside the board's \(info.minFrameRateHz)...\(info.maxFrameRateHz) Hz")
        }
        let reverse = o.allowReverse && info.capabilities & Info.capReverse != 0 && info.motorKind == .erm
        let config = Configure(frameRateHz: UInt16(o.frameRate), dutyFormat: reverse ? .i16 : o.dutyFormat,
                               failsafeMs: o.failsafeMs, flags: reverse ? Configure.flagAllowReverse : 0,
                               reportEvery: o.reportEvery)
        try configure(config, timeoutMs: o.replyTimeoutMs)
        var samples: [ClockSample] = []
        for k in 0..<o.clockSamples {
            samples.append(try clockSample(token: UInt32(k + 1), timeoutMs: o.replyTimeoutMs))
        }
        let clock = ClockEstimate(samples: samples, clockHz: info.clockHz)
        return Prepared(info: info, config: config, clock: clock, prepareNs: MonotonicClock.nowNs() - t0)
    }
}
