// Prepare: HELLO -> INFO, CONFIGURE -> STATUS, clock sync, before any frame is sent.

import MotorWire
import SerialLink

/// What prepare learned.
public struct Prepared: Sendable {
    public var info: Info
    public var config: Configure
    public var clock: ClockTracker
    public var prepareNs: UInt64
}

extension BoardChannel {
    /// Sends `message` and waits for the reply `match` accepts; on a timeout (the message or its reply
    /// lost on the line) it sends again, up to `attempts` times in all. For idempotent requests only.
    func exchange<T>(_ message: HostMessage, _ what: String, attempts: Int = 5, timeoutMs: Int,
                     _ match: (BoardMessage, UInt8) throws(SessionError) -> T?) throws(SessionError) -> T {
        var lastError = SessionError.timeout(what)
        for _ in 0..<max(1, attempts) {
            let seq = try send(message)
            do {
                return try waitFor(what, timeoutMs: timeoutMs) { m throws(SessionError) -> T? in try match(m, seq) }
            } catch {
                guard case .timeout = error else { throw error }
                lastError = error
                try resync()
            }
        }
        throw lastError
    }

    /// Asks the board to announce itself and waits for INFO (it also announces itself at boot).
    public func hello(timeoutMs: Int) throws(SessionError) -> Info {
        try resync()
        let attempts = max(1, timeoutMs / 500)
        let info: Info
        do {
            info = try exchange(.hello, "INFO", attempts: attempts, timeoutMs: timeoutMs / attempts) { m, _ throws(SessionError) -> Info? in
                if case .info(let i) = m { return i }
                return nil
            }
        } catch {
            if case .timeout = error { throw .noHello(port: link.name, ms: timeoutMs) }
            throw error
        }
        guard info.protocolVersion == Wire.version else {
            throw .incompatible("board speaks protocol v\(info.protocolVersion), this host v\(Wire.version)")
        }
        return info
    }

    /// Sends CONFIGURE and waits for the board's STATUS (or its NAK).
    public func configure(_ c: Configure, timeoutMs: Int) throws(SessionError) {
        _ = try exchange(.configure(c), "CONFIGURE reply", attempts: 10, timeoutMs: timeoutMs) { m, s throws(SessionError) -> Bool? in
            switch m {
            case .status(let st) where st.ackSeq == s: return true
            case .nak(let n) where n.refSeq == s: throw .refused(n)
            default: return nil
            }
        }
    }

    /// The board's STATUS now (a HEARTBEAT, answered with STATUS; sent again if lost).
    public func status(timeoutMs: Int) throws(SessionError) -> Status {
        try exchange(.heartbeat, "STATUS", attempts: 3, timeoutMs: timeoutMs) { m, s throws(SessionError) -> Status? in
            if case .status(let st) = m, st.ackSeq == s { return st }
            return nil
        }
    }

    /// Sends STOP now and waits for a STATUS showing the output at 0; true when the board confirmed it.
    /// STOP now is idempotent, so a STOP or reply lost on a noisy line is simply sent again.
    public func stopNow(timeoutMs: Int) -> Bool {
        let off = try? exchange(.stop(atIndex: HostMessage.stopNow), "STOP reply", attempts: 4,
                                timeoutMs: timeoutMs) { m, seq throws(SessionError) -> Bool? in
            if case .status(let s) = m, s.ackSeq == seq { return s.output == 0 && s.state != .playing && s.state != .armed }
            return nil
        }
        return off ?? false
    }

    /// One CLOCK exchange.
    public func clockSample(token: UInt32, timeoutMs: Int, other: (BoardMessage) -> Void = { _ in })
        throws(SessionError) -> ClockSample
    {
        let sent = clock.nowNs()
        try send(.clockRequest(token: token))
        let tick = try waitFor("CLOCK reply", timeoutMs: timeoutMs, other: other) { m throws(SessionError) -> UInt64? in
            if case .clock(let t, let tick) = m, t == token { return tick }
            return nil
        }
        return ClockSample(sentNs: sent, receivedNs: clock.nowNs(), tick: tick)
    }

    /// HELLO, CONFIGURE and clock sync, timed.
    public func prepare(options o: SessionOptions) throws(SessionError) -> Prepared {
        let t0 = clock.nowNs()
        let info = try hello(timeoutMs: o.helloTimeoutMs)
        guard o.frameRate >= Int(info.minFrameRateHz), o.frameRate <= Int(info.maxFrameRateHz) else {
            throw .incompatible("frame rate \(o.frameRate) Hz is outside the board's \(info.minFrameRateHz)...\(info.maxFrameRateHz) Hz")
        }
        let reverse = o.allowReverse && info.capabilities & Info.capReverse != 0 && info.motorKind == .erm
        let config = Configure(frameRateHz: UInt16(o.frameRate), dutyFormat: reverse ? .i16 : o.dutyFormat,
                               failsafeMs: o.failsafeMs, flags: reverse ? Configure.flagAllowReverse : 0,
                               reportEvery: o.reportEvery)
        try configure(config, timeoutMs: o.replyTimeoutMs)
        // Clock sync until converged: at least `clockSamples` exchanges, and until the offset estimate
        // moved less than 50 µs over the last 8 (at most 4x the minimum).
        var tracker = ClockTracker(clockHz: info.clockHz)
        var recent: [Double] = []
        var lost = 0
        for k in 0..<(4 * o.clockSamples) {
            // A lost exchange is simply skipped (a few in a row mean the board is gone).
            guard let sample = try? clockSample(token: UInt32(k + 1), timeoutMs: o.replyTimeoutMs) else {
                lost += 1
                if lost > 3 * o.clockSamples { throw .timeout("CLOCK replies (\(lost) lost)") }
                continue
            }
            tracker.add(sample)
            let e = tracker.estimate()!
            recent.append(Double(e.tick(atHostNs: tracker.samples[0].midNs)))
            if recent.count > 8 { recent.removeFirst() }
            let spread = (recent.max()! - recent.min()!) / e.ticksPerNs / 1000  // µs
            if k + 1 >= o.clockSamples && recent.count == 8 && spread < 50 { break }
        }
        guard !tracker.samples.isEmpty else { throw .timeout("CLOCK replies") }
        let clock = tracker
        return Prepared(info: info, config: config, clock: clock, prepareNs: self.clock.nowNs() - t0)
    }
}
