// Streams frames to a prepared board: pre-fill, START on the board clock, keep the buffer topped up
// within the board's window, resend what was lost, check every PLAYED report, and STOP at the end.
// Clock tracking and re-timing live in Player+Clock.swift, reconnecting in Player+Recovery.swift.

import MotorWire
import SerialLink

/// A snapshot for the live view, about 10 times a second.
public struct LiveStatus: Sendable {
    /// Seconds since the first frame's intended start (negative before it).
    public var elapsed: Double
    public var framesPlayed: Int
    public var framesTotal: Int
    public var board: Status?
    public var retransmits: Int
    public var rttUs: Double?
    public var driftPPM: Double?
    /// "playing", or what the session is doing instead ("reconnecting, attempt 2").
    public var state: String
}

public final class Player {
    let channel: BoardChannel
    var prepared: Prepared
    let options: SessionOptions
    /// Reopens the port after a disconnect (nil: a disconnect ends the session).
    public var reopen: (() throws(LinkError) -> ByteLink)?
    public internal(set) var report = PlayReport()
    /// Called with every PLAYED report, for callers that check the board's evidence themselves.
    public var onPlayed: ((Played) -> Void)?

    // Stream state, in session frame indices (wire index = session index - wireBase).
    var source: FrameSource!
    var total = 0
    var wireBase = 0
    var next = 0
    var highestSent = 0
    var acked = 0
    var playedThrough = 0
    var stopSent = false
    var lastSendNs: UInt64 = 0
    var lastProgressNs: UInt64 = 0
    var lastHeardNs: UInt64 = 0
    var lastBoard: Status?
    var lastRTTUs: Double?
    var lastFramePlayedNs: UInt64 = 0
    /// Host time at which session frame 0 is meant to be felt.
    public internal(set) var sessionStartNs: UInt64 = 0
    /// The timebase last sent to the board (wire indices).
    public internal(set) var timebase: Timebase?
    /// The session index of wire index 0 for each board connection (one entry per prepare).
    public internal(set) var wireBases: [Int] = []
    /// Every START sent, as (session index of wire 0, START) — for harnesses that check true timing.
    public internal(set) var starts: [(wireBase: Int, start: Start)] = []
    var tracker: ClockTracker
    var clockTokens: [UInt32: UInt64] = [:]
    var nextToken: UInt32 = 1_000
    var nextSyncNs: UInt64 = 0
    var lastRetimeNs: UInt64 = 0
    var lateness: [Double] = []
    var statusText = "playing"
    var sentAt = [(index: Int, at: UInt64)](repeating: (-1, 0), count: 2048)
    var lastErrorCount = 0
    var lastErrorNs: UInt64 = 0
    var lastRepairIndex = -1
    var lastRepairNs: UInt64 = 0
    var lastStartResendNs: UInt64 = 0

    /// A round trip and a half, at least 50 ms: NAKs older than this answer messages sent before a repair.
    var repairGuardNs: UInt64 { max(50_000_000, tracker.minRTTNs * 3 / 2 + 20_000_000) }

    /// Resends one message's worth of frames from `index` (a hole the board named), at most once per
    /// round trip for the same hole: NAKs for messages sent before the repair keep arriving for a while.
    func repair(from index: Int) throws(SessionError) {
        guard index < highestSent else { return }
        if index == lastRepairIndex && elapsed(now, since: lastRepairNs) < repairGuardNs { return }
        lastRepairIndex = index
        lastRepairNs = now
        let n = try sendBlock(from: index, count: min(options.maxFramesPerMessage, highestSent - index))
        report.retransmits += n
    }

    /// Sends frames [index, index + count) as one FRAMES message (count clipped to what fits); returns how many.
    @discardableResult
    func sendBlock(from index: Int, count: Int) throws(SessionError) -> Int {
        let format = prepared.config.dutyFormat
        let n = min(format.maxPerMessage, count)
        guard n > 0 else { return 0 }
        var block = FramesBlock(firstIndex: wire(index), format: format)
        for v in source.frames(from: index, count: n) { block.values.append(v) }
        try channel.send(.frames(block))
        noteSent(from: index, count: n)
        report.framesSent += n
        lastSendNs = now
        return n
    }

    /// Whether the line corrupted frames within the last few seconds (CRC errors counted by either side);
    /// notes new errors as it looks.
    func lineWasLossyLately() -> Bool {
        let errors = report.crcErrors + Int(channel.rxErrors.total)
        if errors > lastErrorCount {
            lastErrorCount = errors
            lastErrorNs = now
        }
        return lastErrorNs > 0 && elapsed(now, since: lastErrorNs) < 5_000_000_000
    }

    /// Sends frames [index, index + count) again, unconditionally.
    func resend(from index: Int, count: Int) throws(SessionError) {
        report.retransmits += try sendBlock(from: index, count: min(count, highestSent - index))
    }

    /// Remembers when frames were last sent (a ring over the board's window).
    func noteSent(from index: Int, count: Int) {
        let t = now
        for i in index..<(index + count) { sentAt[i & 2047] = (i, t) }
    }

    /// How long ago frame `index` was last sent (nil when it is no longer remembered).
    func sentAgoNs(_ index: Int) -> UInt64? {
        let entry = sentAt[index & 2047]
        return entry.index == index ? elapsed(now, since: entry.at) : nil
    }

    /// Frame `index` was sent long enough ago that it should have arrived: if the board still misses it,
    /// it was lost.
    func overdue(_ index: Int) -> Bool { (sentAgoNs(index) ?? 0) > repairGuardNs }

    public init(channel: BoardChannel, prepared: Prepared, options: SessionOptions) {
        self.channel = channel
        self.prepared = prepared
        self.options = options
        tracker = prepared.clock
        report.prepareMs = Double(prepared.prepareNs) / 1e6
    }

    /// The current board clock estimate.
    public var clockEstimate: ClockEstimate? { tracker.estimate() }
    public var clockSamples: [ClockSample] { tracker.samples }

    var rate: Int { options.frameRate }
    var now: UInt64 { channel.clock.nowNs() }

    /// Host time at which session frame `i` is meant to be felt.
    public func intendedNs(_ i: Int) -> UInt64 { sessionStartNs + UInt64(i) * 1_000_000_000 / UInt64(rate) }

    func wire(_ i: Int) -> UInt32 { UInt32(truncatingIfNeeded: i - wireBase) }

    /// Plays `source` to the end (or until `shouldStop` returns true). The motor is off when it returns,
    /// also when it throws, as far as the link still works.
    public func play(_ source: FrameSource, onStatus: (LiveStatus) -> Void = { _ in },
                     shouldStop: () -> Bool = { false }) throws(SessionError) -> PlayReport {
        self.source = source
        total = source.frameCount
        report.framesTotal = total
        do {
            try stream(onStatus: onStatus, shouldStop: shouldStop)
        } catch {
            finishReport()
            report.motorOffAtExit = stopMotor()
            throw error
        }
        finishReport()
        report.motorOffAtExit = stopMotor()
        return report
    }

    func finishReport() {
        report.rttUs = Percentiles(tracker.rtts.map { Double($0) / 1000 })
        report.scheduleErrorUs = Percentiles(lateness)
        report.hostRxErrors = Int(channel.rxErrors.total)
        report.clockDriftPPM = tracker.estimate()?.driftPPM ?? 0
    }

    private func stream(onStatus: (LiveStatus) -> Void, shouldStop: () -> Bool) throws(SessionError) {
        sessionStartNs = now + UInt64(options.startLeadMs) * 1_000_000
        try begin(at: 0)
        var nextViewNs: UInt64 = 0
        while playedThrough < total && !boardFinished {
            let t = now
            if shouldStop() {
                report.interrupted = true
                return
            }
            if t > intendedNs(total) + 3_000_000_000 {
                throw .timeout("the board to report the last frames played")
            }
            do {
                try pump(at: t)
            } catch {
                guard case .link(let e) = error, case .disconnected = e else { throw error }
                try recover(reason: e.description, onStatus: onStatus)
            }
            if elapsed(now, since: lastHeardNs) > UInt64(options.silenceTimeoutMs) * 1_000_000 {
                try recover(reason: "the board stopped answering", onStatus: onStatus)
            }
            if t >= nextViewNs {
                nextViewNs = t + 100_000_000
                onStatus(LiveStatus(elapsed: (Double(t) - Double(sessionStartNs)) / 1e9, framesPlayed: playedThrough,
                                    framesTotal: total, board: lastBoard, retransmits: report.retransmits,
                                    rttUs: lastRTTUs, driftPPM: tracker.estimate()?.driftPPM, state: statusText))
            }
        }
    }

    /// Pre-fills from session frame `first` (wire index 0) and STARTs so it plays at its intended time.
    func begin(at first: Int) throws(SessionError) {
        wireBase = first
        wireBases.append(first)
        next = first
        highestSent = first
        acked = first
        playedThrough = max(playedThrough, first)
        stopSent = false
        lastProgressNs = now
        lastHeardNs = now
        try sendFrames(upTo: first + targetFrames)
        let estimate = tracker.estimate()!
        let start = Start(anchorIndex: 0, anchorTick: estimate.tick(atHostNs: intendedNs(first)),
                          periodQ32: period(estimate))
        timebase = start.timebase
        starts.append((first, start))
        lastRetimeNs = now
        try channel.send(.start(start))
        nextSyncNs = now
    }

    var targetFrames: Int {
        max(1, min(Int(prepared.info.bufferCapacity) - 8, rate * options.targetBufferMs / 1000))
    }

    /// Sends frames up to `limit` (exclusive), never more than the board's window past its last ACK.
    func sendFrames(upTo limit: Int) throws(SessionError) {
        let window = acked + Int(prepared.info.bufferCapacity) - 8
        let end = min(limit, window, total)
        while next < end {
            let n = try sendBlock(from: next, count: min(options.maxFramesPerMessage, end - next))
            if next < highestSent { report.retransmits += min(n, highestSent - next) }
            next += n
            highestSent = max(highestSent, next)
        }
    }

    /// One round: send what is due, read what came, react.
    func pump(at t: UInt64) throws(SessionError) {
        let playing = t < sessionStartNs ? 0 : Int((t - sessionStartNs) * UInt64(rate) / 1_000_000_000)
        // Top up in batches of ~100 ms: one-frame messages every frame period would waste most of the
        // link on headers and queue everything else behind them.
        let batch = max(1, min(prepared.config.dutyFormat.maxPerMessage, options.maxFramesPerMessage, rate / 10))
        if playing + targetFrames - next >= batch || next < playing + targetFrames / 2 {
            let before = next
            try sendFrames(upTo: playing + targetFrames)
            // On a line that corrupts frames, send the previous batch once more as well: a frame is then
            // lost only if both copies are (at 40 % message loss: 16 %), and repairs have far less to do.
            if lineWasLossyLately() && next > before && before - batch >= acked {
                try resend(from: before - batch, count: batch)
            }
        }
        if next >= total && !stopSent {
            try channel.send(.stop(atIndex: wire(total)))
            stopSent = true
            lastSendNs = t
        }
        // Retransmission timeout: the oldest unacknowledged frame has been out longer than the RTO.
        let rto = UInt64(options.retransmitTimeoutMs) * 1_000_000
        if acked < highestSent && elapsed(t, since: lastProgressNs) > rto && (sentAgoNs(acked) ?? 0) > rto {
            try repair(from: acked)
            lastProgressNs = t
        }
        try syncClock(at: t)
        if elapsed(t, since: lastSendNs) > UInt64(options.heartbeatMs) * 1_000_000 {
            try channel.send(.heartbeat)
            lastSendNs = t
        }
        for m in try channel.receive(timeoutMs: 2) {
            lastHeardNs = now
            try handle(m, playing: playing)
        }
    }

    func handle(_ m: BoardMessage, playing: Int) throws(SessionError) {
        switch m {
        case .status(let s):
            lastBoard = s
            if stopSent && s.state == .configured && s.nextExpected == 0 && now >= intendedNs(total) {
                // Stopped at the end; a lost final PLAYED leaves its frames unreported.
                report.unreported += max(0, total - playedThrough)
                playedThrough = total
            }
            report.underruns = Int(s.underruns)
            report.lateArrivals = Int(s.lateFrames)
            report.crcErrors = Int(s.rxCRCErrors) + Int(channel.rxErrors.badCRC)
            if s.state == .failsafe || s.state == .idle {
                throw .link(.disconnected(path: "board lost its configuration (\(s.state))"))
            }
            if s.state == .configured && !stopSent, let tb = timebase, elapsed(now, since: lastStartResendNs) > repairGuardNs {
                // We started it, but it is still only configured: that START was lost. Send it again.
                try channel.send(.start(Start(anchorIndex: tb.anchorIndex, anchorTick: tb.anchorTick, periodQ32: tb.periodQ32)))
                lastStartResendNs = now
            }
            let expected = wireBase + Int(s.nextExpected)
            if (s.state == .armed || s.state == .playing) && expected < highestSent && overdue(expected) {
                try repair(from: expected)  // the first frame it misses should have arrived by now: lost
            }
            if s.nextExpected != 0 || s.state != .configured {
                if expected > acked {
                    acked = expected
                    lastProgressNs = now
                }
                if expected > next { next = expected }  // the board moved past these (underrun)
            }
        case .nak(let n):
            report.naks += 1
            switch n.code {
            case .gap, .bufferFull:
                // NAKs for messages sent before we went back arrive for a while after it: going back again
                // for the same index within a round trip would resend the same frames over and over.
                // Selective repeat: the board kept what came after the hole; resend just the hole.
                let index = wireBase + Int(n.detail)
                if n.code == .bufferFull { next = min(next, index) } else { try repair(from: index) }
            default:
                throw .refused(n)
            }
        case .played(let p):
            onPlayed?(p)
            let first = wireBase + Int(p.firstIndex)
            if first < playedThrough { report.outOfOrder += 1 }
            if first > playedThrough { report.unreported += first - playedThrough }
            if p.firstIndex == 0 && first == 0 {
                report.startErrorUs = ticksToUs(Int64(p.firstTick) - Int64(timebase?.due(0) ?? p.firstTick))
            }
            playedThrough = first + Int(p.count)
            lastFramePlayedNs = now
            if playedThrough > acked { acked = playedThrough }  // it played them, so it had them
            report.framesPlayed += Int(p.count)
            report.playedLate += Int(p.lateCount)
            lateness.append(ticksToUs(Int64(p.maxLateTicks)))
            if p.dutyCRC != dutyCRC(source.frames(from: first, count: Int(p.count))) { report.dutyMismatches += 1 }
        case .clock(let token, let tick):
            clockReply(token: token, tick: tick)
        case .info:
            throw .link(.disconnected(path: "board restarted"))
        }
    }

    /// The board stopped by itself at the end (its final PLAYED report may have been lost on the line).
    var boardFinished: Bool {
        guard stopSent, let s = lastBoard, s.state == .configured else { return false }
        return now > intendedNs(total)
    }

    func ticksToUs(_ ticks: Int64) -> Double { Double(ticks) * 1e6 / Double(prepared.info.clockHz) }

    /// Sends STOP now and waits briefly for a STATUS showing the output at 0.
    public func stopMotor() -> Bool { channel.stopNow(timeoutMs: options.replyTimeoutMs) }
}

/// Nanoseconds from `earlier` to `now`, 0 if `earlier` is later (stamped after `now` was read).
@inline(__always)
func elapsed(_ now: UInt64, since earlier: UInt64) -> UInt64 { now > earlier ? now - earlier : 0 }

/// CRC-16/CCITT-FALSE over raw duty values, each as 2 little-endian bytes (as in PLAYED).
public func dutyCRC(_ values: [UInt16]) -> UInt16 { CRC16.ofDuties(values) }
