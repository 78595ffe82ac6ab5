// Prepare: HELLO -> INFO, CONFIGURE -> STATUS, clock sync, before any frame is sent.
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import SerialLink

/// What prepare learned.
public struct Prepared: Sendable {
    public var info: Info
    public var config: Configure
    public var clock: ClockTracker
    public var prepareNs: UInt64
    /// The board tick of the STATUS that answered CONFIGURE: anything the board reports from before it
    /// belongs to an earlier stream.
    public var configuredTick: UInt64
    /// The motor's drive ceiling, from a board with INFO capability bit 2 (DriveLimits.swift); nil otherwise.
    public var limits: Limits? = nil
}

extension BoardChannel {
    /// Sends `message` and waits for the reply `match` accepts; on a timeout (the message or its reply
    /// lost on the line) it sends again, up to `attempts` times in all. For idempotent requests only: a
    /// late answer to an earlier attempt counts as well, so a retry timeout shorter than a slow round trip
    /// costs a duplicate request, never the answer.
    func exchange<T>(_ message: HostMessage, _ what: String, attempts: Int = 5, timeoutMs: Int,
                     _ match: (BoardMessage, UInt8) throws(SessionError) -> T?) throws(SessionError) -> T {
        var lastError = SessionError.timeout(what)
        var sent: [UInt8] = []
        for _ in 0..<max(1, attempts) {
            sent.append(try send(message))
            do {
                return try waitFor(what, timeoutMs: timeoutMs) { m throws(SessionError) -> T? in
                    for seq in sent.reversed() { if let found = try match(m, seq) { return found } }
                    return nil
                }
            } catch {
                guard case .timeout = error else { throw error }
                lastError = error
                try resync()
            }
        }
        throw lastError
    }

    /// Asks the board to announce itself and waits for INFO (it also announces itself at boot). HELLO goes
    /// out again every 200 ms: a request or its INFO lost on a noisy line costs 200 ms, not the whole wait.
    public func hello(timeoutMs: Int) throws(SessionError) -> Info {
        try resync()
        let attempts = max(1, timeoutMs / 200)
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
    @discardableResult
    public func configure(_ c: Configure, timeoutMs: Int, attempts: Int = 10) throws(SessionError) -> Status {
        try exchange(.configure(c), "CONFIGURE reply", attempts: attempts, timeoutMs: timeoutMs) { m, s throws(SessionError) -> Status? in
            switch m {
            case .status(let st) where st.ackSeq == s: return st
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
    /// STOP now is idempotent, so a STOP or reply lost on a noisy line is simply sent again, every
    /// `timeoutMs`, for up to `withinMs` in all (at 3 % byte errors most exchanges are lost).
    public func stopNow(timeoutMs: Int, withinMs: Int = 3000) -> Bool {
        // Nothing ever answered: no board of ours is playing there. STOP goes out once, unanswered, rather
        // than waiting seconds on a port where no board is (a bare /dev/ttyS0 took 6 s to refuse, not 3).
        guard heardBoard else {
            _ = try? send(.stop(atIndex: HostMessage.stopNow))
            return false
        }
        let off = try? exchange(.stop(atIndex: HostMessage.stopNow), "STOP reply", attempts: max(4, withinMs / max(1, timeoutMs)),
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

    /// HELLO, CONFIGURE and clock sync, timed. Requests that go unanswered are sent again after a few round
    /// trips (the HELLO exchange measures one), so a noisy line costs retries, not timeouts.
    public func prepare(options o: SessionOptions) throws(SessionError) -> Prepared {
        let t0 = clock.nowNs()
        var info = try hello(timeoutMs: o.helloTimeoutMs)
        let helloNs = clock.nowNs() - t0
        guard o.frameRate >= Int(info.minFrameRateHz), o.frameRate <= Int(info.maxFrameRateHz) else {
            throw .incompatible("frame rate \(o.frameRate) Hz is outside the board's \(info.minFrameRateHz)...\(info.maxFrameRateHz) Hz")
        }
        let reverse = o.allowReverse && info.capabilities & Info.capReverse != 0 && info.motorKind == .erm
        let config = Configure(frameRateHz: UInt16(o.frameRate), dutyFormat: reverse ? .i16 : o.dutyFormat,
                               failsafeMs: o.failsafeMs, flags: reverse ? Configure.flagAllowReverse : 0,
                               reportEvery: o.reportEvery ?? UInt16(max(1, o.frameRate / 10)))
        // A retry timeout of a few round trips: the HELLO exchange took at least one (if it answered the
        // first HELLO). A late answer to an earlier attempt still counts, so erring short is cheap.
        let retryMs = min(o.replyTimeoutMs, max(100, Int(min(helloNs, 100_000_000) / 1_000_000) * 3))
        // CONFIGURE is idempotent: on a noisy line it is simply sent again, for up to 6 reply timeouts in all.
        let configured = try configure(config, timeoutMs: retryMs, attempts: max(10, 6 * o.replyTimeoutMs / retryMs))
        let limits = info.capabilities & Info.capLimits != 0 ? try self.limits(timeoutMs: retryMs) : nil
        let tracker = try syncClock(clockHz: info.clockHz, options: o, retryMs: retryMs, preparedSince: t0 + helloNs)
        // The board's revision (section 10), asked only where the session may use it: a board of revision 1.4
        // holds CLOCK requests on a fast link whose adapter the session does not know (`holdClockRequests`,
        // `StreamTiming.fastLink`). Asking costs a round trip (three, at least 100 ms, for a board that announces
        // none), and a board of revision 1.3 or later then sends STATUS 4 bytes longer (`rx_lost_bytes`): on a
        // slow adapter link those bytes and that round trip worsen the clock estimate, for no use there.
        if o.linkProfile == nil && tracker.minRTTNs < ClockSync.fastRoundTripNs,
           let announced = try announcedInfo(timeoutMs: retryMs) {
            info = announced
        }
        return Prepared(info: info, config: config, clock: tracker, prepareNs: self.clock.nowNs() - t0,
                        configuredTick: configured.tick, limits: limits)
    }

    /// Clock sync, pipelined: a CLOCK request every `prepareSyncMs` without waiting for replies (matched by
    /// token), until at least `clockSamples` answered and the offset estimate moved less than 50 µs over
    /// the last 8 (at most 4x the samples), or until `prepareBudgetMs` have passed since `preparedSince` (the
    /// board's answer to HELLO) with at least `clockSamples` answered. A lost request or reply costs one sample.
    func syncClock(clockHz: UInt32, options o: SessionOptions, retryMs: Int, preparedSince: UInt64) throws(SessionError) -> ClockTracker {
        var tracker = ClockTracker(clockHz: clockHz)
        // On a known adapter: each exchange's minima, requests spread over its hold (LinkAwareSync).
        let link = o.linkProfile.map(LinkAwareSync.init)
        var outstanding: [UInt32: (sent: UInt64, idle: Bool)] = [:]
        var recent: [Double] = []
        let interval = UInt64(o.prepareSyncMs) * 1_000_000
        let start = clock.nowNs()
        let giveUp = start + UInt64(max(2 * o.replyTimeoutMs, 4 * o.clockSamples * o.prepareSyncMs + retryMs)) * 1_000_000
        var sent: UInt32 = 0
        var nextSend = start
        while true {
            let t = clock.nowNs()
            if t >= nextSend && Int(sent) < 4 * o.clockSamples {
                sent += 1
                let last = lastWriteInfo
                outstanding[sent] = (t, link?.lineIdle(now: t, lastWriteNs: last.ns, lastWriteBytes: last.bytes) ?? false)
                try send(.clockRequest(token: sent))
                nextSend = link?.due(after: t, intervalNs: interval, k: UInt64(sent)) ?? t + interval
            }
            let enough = tracker.samples.count >= o.clockSamples
            let converged = enough && recent.count == 8
                && (recent.max()! - recent.min()!) / tracker.nominalTicksPerNs / 1000 < 50
            // Whole milliseconds of prepare's budget left, rounded down (replies are awaited in whole milliseconds).
            let budgetLeftMs = o.prepareBudgetMs - Int((elapsed(t, since: preparedSince) + 999_999) / 1_000_000)
            if converged || (enough && budgetLeftMs < 1) { break }
            if t >= giveUp || (Int(sent) >= 4 * o.clockSamples && outstanding.isEmpty) { break }
            var waitMs = Int(sent) < 4 * o.clockSamples ? max(1, Int(elapsed(nextSend, since: t) / 1_000_000)) : 5
            if enough { waitMs = max(1, min(waitMs, budgetLeftMs)) }
            let untilSend = nextSend > t ? nextSend - t : 0
            let messages = link != nil && Int(sent) < 4 * o.clockSamples && untilSend > 0 && untilSend < UInt64(waitMs) * 1_000_000
                ? try receive(timeoutNs: untilSend) : try receive(timeoutMs: waitMs)
            for m in messages {
                guard case .clock(let token, let tick) = m, let at = outstanding.removeValue(forKey: token) else { continue }
                var sample = ClockSample(sentNs: at.sent, receivedNs: clock.nowNs(), tick: tick)
                if let link {
                    let alone = lastReceiveAlone
                    (sample.minToBoardNs, sample.minToHostNs) = link.minima(lineWasIdle: at.idle, replyAlone: alone)
                }
                tracker.add(sample)
                let e = tracker.estimate()!
                recent.append(Double(e.tick(atHostNs: tracker.samples[0].midNs)))
                if recent.count > 8 { recent.removeFirst() }
            }
            // Requests older than a few round trips were lost.
            outstanding = outstanding.filter { elapsed(clock.nowNs(), since: $0.value.sent) < UInt64(retryMs) * 4_000_000 }
        }
        guard tracker.samples.count >= min(4, o.clockSamples) else {
            throw .timeout("CLOCK replies (\(tracker.samples.count) of \(sent) answered)")
        }
        return tracker
    }
}
