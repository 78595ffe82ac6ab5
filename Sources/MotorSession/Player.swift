// Streams frames to a prepared board: pre-fill, START on the board clock, keep the buffer topped up
// within the board's window, resend what was lost, and let the stream end by itself on the board.
// Board messages: Player+Messages.swift. Clock tracking and re-timing: Player+Clock.swift.
// Reconnecting and re-preparing: Player+Recovery.swift. Ending the stream: Player+End.swift.

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

/// Streams one breath's frames to a prepared board: fills the board's buffer, sends START on the board's
/// clock, keeps the buffer topped up within its window, resends what was lost, re-times as the clock
/// estimate improves, applies live changes, reconnects after an unplug, and builds the `PlayReport` from
/// the board's PLAYED evidence. `BreathSession` owns one per breath; tests and benches make their own.
///
///     let player = Player(channel: channel, prepared: try channel.prepare(options: options), options: options)
///     let report = try player.play(FrameWindow(renderer))
public final class Player {
    let channel: BoardChannel
    var prepared: Prepared
    let options: SessionOptions
    /// Reopens the port after a disconnect (nil: a disconnect ends the session).
    public var reopen: (() throws(LinkError) -> ByteLink)?
    public internal(set) var report = PlayReport()
    /// Called with every PLAYED report of the current stream, for callers that check the board's evidence.
    public var onPlayed: ((Played) -> Void)?
    /// Changes to the breath while it plays (from any thread); needs a `LiveFrames` source.
    public let controls: ControlInbox
    /// Phase starts and changes as they reach the motor, with their board ticks.
    public var onEvent: ((SessionEvent) -> Void)?
    var pendingEffects: [PendingEffect] = []
    /// Events waiting for the board's clock to pass their tick (see `releaseEvents`).
    var heldEvents: [(event: SessionEvent, tick: UInt64)] = []
    var lastPhaseEventFrame = -1
    /// How many frames ahead of their tick the board hands them to its output (seen in its STATUS).
    var boardLeadFrames = 0
    /// How long re-rendering for a change took lately (a running mean).
    var applyNs: UInt64 = 20_000_000

    var source: FrameSource!
    var total = 0
    /// Session index of wire index 0 on the board's current stream (wire index = session index - wireBase).
    var wireBase = 0
    var window = SendWindow()
    var sync: ClockSync
    var health = LinkHealth()
    var counters = BoardCounters()
    var dutyCheck = DutyCheck()
    var end = StreamEnd()
    /// Host time at which session frame 0 is meant to be felt.
    public internal(set) var sessionStartNs: UInt64 = 0
    /// The timebase last sent to the board (wire indices).
    public internal(set) var timebase: Timebase?
    /// The session index of wire index 0 for each board connection (one entry per prepare).
    public internal(set) var wireBases: [Int] = []
    /// Every START sent, as (session index of wire 0, START) — for harnesses that check true timing.
    public internal(set) var starts: [(wireBase: Int, start: Start)] = []
    var lastRetimeNs: UInt64 = 0
    var lastStartResendNs: UInt64 = 0
    var lastFramePlayedNs: UInt64 = 0
    var lateness = PercentileSketch()
    var statusText = "playing"

    /// A round trip and a half, at least 50 ms: NAKs older than this answer messages sent before a repair.
    /// On a lossy line a repair is itself often lost, so the same hole is tried again after one round trip.
    var repairGuardNs: UInt64 {
        lossy ? max(30_000_000, sync.tracker.minRTTNs + 10_000_000)
            : max(50_000_000, sync.tracker.minRTTNs * 3 / 2 + 20_000_000)
    }

    /// The line corrupted frames lately (either side counted CRC errors within 5 s): send smaller messages,
    /// keep the board's whole buffer filled (more time to repair), and send every repair twice.
    var lossy = false

    /// Frames per FRAMES message. On a clean line, 200 ms of frames (50 at 250 Hz; 200 u8 or 117 i16 at
    /// 1 kHz), at least `minFramesPerMessage`, at most a quarter of the board's buffer (the AVR board's 256):
    /// fewer headers, STATUS answers and wake-ups, and fewer CLOCK requests queued behind a FRAMES (seeds
    /// 1-20: start error p90 561 -> 465 µs at 250 Hz, 821 -> 650 µs at 1 kHz). On a lossy line, half of
    /// `minFramesPerMessage` at any rate (at 1 % byte errors a 32-frame i16 message is lost 53 % of the
    /// time, a 16-frame one 36 %).
    var framesPerMessage: Int {
        lossy ? max(1, min(cleanFramesPerMessage, options.minFramesPerMessage) / 2) : cleanFramesPerMessage
    }

    var cleanFramesPerMessage: Int {
        let format = prepared.config.dutyFormat
        return min(format.maxPerMessage, Int(prepared.info.bufferCapacity) / 4, max(options.minFramesPerMessage, rate / 5))
    }

    /// The steady traffic's budget on this line (with the messages a clean line carries).
    var lineBudget: LineBudget {
        LineBudget(baud: options.baud, share: options.lineShare, frameRate: rate, format: prepared.config.dutyFormat,
                   framesPerMessage: cleanFramesPerMessage)
    }

    /// How often CLOCK exchanges go out once the rate is learned: `syncMs`, or sparser where the line is
    /// busy (it depends on the rate, the format, the board's buffer and the line).
    var steadySyncMs: Int {
        lineBudget.clockIntervalMs(fastestMs: options.syncMs, slowestMs: max(options.syncMs, options.sparsestSyncMs))
    }

    public init(channel: BoardChannel, prepared: Prepared, options: SessionOptions, controls: ControlInbox = ControlInbox()) {
        self.channel = channel
        self.controls = controls
        self.prepared = prepared
        self.options = options
        firstClockRequestNs = prepared.clock.samples.first?.sentNs
        sync = ClockSync(tracker: prepared.clock)
        report.prepareMs = Double(prepared.prepareNs) / 1e6
        controls.clock = channel.clock
        let channel = self.channel
        controls.wake = { channel.link.wake() }
        keepExchangesLonger(spacingMs: steadySyncMs)
    }

    /// The current board clock estimate.
    public var clockEstimate: ClockEstimate? { sync.tracker.estimate() }
    public var clockSamples: [ClockSample] { sync.tracker.samples }
    /// The longest the host stays quiet: `heartbeatMs`, but at most a quarter of the failsafe time, so a
    /// short `--failsafe-ms` (down to 20 ms) is fed too, not only the default 200 ms.
    var heartbeatMs: Int { min(options.heartbeatMs, max(1, Int(options.failsafeMs) / 4)) }
    /// When prepare sent its first CLOCK request (host ns): the clock estimate's age at the first frame.
    public let firstClockRequestNs: UInt64?

    var rate: Int { options.frameRate }
    var now: UInt64 { channel.clock.nowNs() }
    /// The session's clock now (host monotonic, or virtual in a simulation): events' `hostNs` are on it.
    public var clockNowNs: UInt64 { now }

    /// Host time at which session frame `i` is meant to be felt.
    public func intendedNs(_ i: Int) -> UInt64 { sessionStartNs + UInt64(i) * 1_000_000_000 / UInt64(rate) }

    func wire(_ i: Int) -> UInt32 { UInt32(truncatingIfNeeded: i - wireBase) }

    /// Plays `source` to the end (or until `shouldStop` returns true). The motor is off when it returns,
    /// also when it throws, as far as the link still works; `report` is complete either way.
    public func play(_ source: FrameSource, onStatus: (LiveStatus) -> Void = { _ in },
                     shouldStop: () -> Bool = { false }) throws(SessionError) -> PlayReport {
        self.source = source
        total = source.frameCount
        report.framesTotal = total
        // On a real clock, a thread of its own keeps the failsafe fed through host stalls. (In virtual time
        // the loop is the only thing that moves time, so it sends its own heartbeats.)
        let keepAlive = options.keepAliveThread && channel.clock is SystemClock
            ? KeepAlive(channel: channel, idleMs: heartbeatMs) : nil
        func finish() {
            releaseEvents(all: true)
            keepAlive?.stop()
            finishReport()
            report.motorOffAtExit = stopMotor()
        }
        do {
            try stream(onStatus: onStatus, shouldStop: shouldStop)
        } catch {
            finish()
            report.error = error.description
            throw error
        }
        finish()
        return report
    }

    func finishReport() {
        report.rttUs = Percentiles(sync.tracker.rtts.map { Double($0) / 1000 })
        report.scheduleErrorUs = lateness.percentiles
        report.hostRxErrors = Int(channel.rxErrors.total)
        report.clockDriftPPM = sync.tracker.estimate()?.driftPPM ?? 0
        noteHostSilence()
        report.framesPlayed = min(report.framesPlayed, total)
        report.bytesSent = channel.bytesSent
        report.bytesReceived = channel.bytesReceived
    }

    /// Folds the channel's longest write gap of the current stream into the report.
    func noteHostSilence() {
        report.hostLongestSilenceMs = max(report.hostLongestSilenceMs, Double(channel.longestWriteGapNs) / 1e6)
    }

    func liveStatus(at t: UInt64) -> LiveStatus {
        LiveStatus(elapsed: (Double(t) - Double(sessionStartNs)) / 1e9, framesPlayed: window.playedThrough,
                   framesTotal: total, board: health.board, retransmits: report.retransmits,
                   rttUs: health.rttUs, driftPPM: sync.tracker.estimate()?.driftPPM, state: statusText)
    }

    private func stream(onStatus: (LiveStatus) -> Void, shouldStop: () -> Bool) throws(SessionError) {
        sessionStartNs = now + UInt64(options.startLeadMs) * 1_000_000
        try begin(at: 0)
        var nextViewNs: UInt64 = 0
        while !finished {
            let t = now
            if shouldStop() || controls.stopRequested {
                report.interrupted = true
                return
            }
            if t > intendedNs(total) + 3_000_000_000 {
                throw .timeout("the board to finish the stream (it stopped reporting after the last frames)")
            }
            do throws(SessionError) {
                try applyChanges()
                try pump(at: t)
                if elapsed(now, since: channel.lastHeardNs) > UInt64(options.silenceTimeoutMs) * 1_000_000 {
                    throw SessionError.boardLost("the board stopped answering for \(options.silenceTimeoutMs) ms")
                }
            } catch {
                try recover(from: error, onStatus: onStatus)
            }
            releaseEvents()
            if t >= nextViewNs {
                nextViewNs = t + 100_000_000
                onStatus(liveStatus(at: t))
            }
        }
        // The board's last PLAYED reports were lost on the line: those frames could not be checked.
        report.unreported += max(0, total - window.playedThrough)
    }

    /// Pre-fills from session frame `first` (wire index 0) and STARTs so it plays at its intended time.
    func begin(at first: Int) throws(SessionError) {
        wireBase = first
        wireBases.append(first)
        window.restart(at: first, now: now)
        end = StreamEnd()
        try sendFrames(upTo: first + targetFrames)
        let estimate = sync.tracker.estimate()!
        let start = Start(anchorIndex: 0, anchorTick: estimate.tick(atHostNs: intendedNs(first)),
                          periodQ32: period(estimate))
        timebase = start.timebase
        starts.append((first, start))
        lastRetimeNs = now
        try channel.send(.start(start))
        sync.dueNow(now)
        channel.resetWriteGap()  // the gaps that matter are the ones while a stream plays
    }

    var targetFrames: Int {
        let capacity = Int(prepared.info.bufferCapacity) - 8
        return max(1, lossy ? capacity : min(capacity, rate * options.targetBufferMs / 1000))
    }

    /// Sends frames [index, index + count) as one FRAMES message (count clipped to what fits); returns how many.
    /// With `replacing`, as REPLACE: the board overwrites those frames if it has not output them yet.
    @discardableResult
    func sendBlock(from index: Int, count: Int, replacing: Bool = false) throws(SessionError) -> Int {
        let format = prepared.config.dutyFormat
        let n = min(format.maxPerMessage, count, total - index)
        guard n > 0 else { return 0 }
        var block = FramesBlock(firstIndex: wire(index), format: format)
        for v in source.frames(from: index, count: n) { block.values.append(v) }
        // Frames sent before go again as REPLACE where the board takes it: the breath may have changed since
        // (a repair must not leave the board with the old values).
        let replace = replacing || (index < window.highestSent && prepared.info.capabilities & Info.capReplace != 0)
        try channel.send(replace ? .replace(block) : .frames(block))
        window.noteSent(from: index, count: n, at: now)
        report.framesSent += n
        return n
    }

    /// Sends frames up to `limit` (exclusive), never more than the board's window past its last ACK.
    func sendFrames(upTo limit: Int) throws(SessionError) {
        let end = min(limit, window.acked + Int(prepared.info.bufferCapacity) - 8, total)
        while window.next < end {
            let resent = window.highestSent - window.next
            let n = try sendBlock(from: window.next, count: min(framesPerMessage, end - window.next))
            if resent > 0 { report.retransmits += min(n, resent) }
            window.next += n
        }
    }

    /// Resends one message's worth of frames from `index` (a hole the board named), at most once per
    /// round trip for the same hole.
    func repair(from index: Int) throws(SessionError) {
        guard window.shouldRepair(from: index, now: now, guardNs: repairGuardNs) else { return }
        // On a lossy line the messages after a hole are likely lost too: resend the next one as well, and
        // each twice.
        for _ in 0..<(lossy ? 2 : 1) {
            var at = index
            for _ in 0..<(lossy ? 2 : 1) where at < window.highestSent {
                let n = try sendBlock(from: at, count: min(framesPerMessage, window.highestSent - at))
                report.retransmits += n
                at += n
            }
        }
    }

    /// Frame `index` was sent long enough ago that it should have arrived: if the board still misses it,
    /// it was lost.
    func overdue(_ index: Int) -> Bool { (window.sentAgoNs(index, now: now) ?? 0) > repairGuardNs }

    /// One round: send what is due, read what came, react.
    func pump(at t: UInt64) throws(SessionError) {
        total = source.frameCount  // a live breath grows (looping, paused) or shrinks (finished)
        report.framesTotal = total
        let playing = t < sessionStartNs ? 0 : Int((t - sessionStartNs) * UInt64(rate) / 1_000_000_000)
        // Top up in whole messages: one-frame messages every frame period would waste most of the link on
        // headers, and a remainder message after each batch nearly doubles the headers. (When the buffer
        // runs low, or at the end, whatever is due goes.)
        lossy = health.lossyLately(errors: report.crcErrors + Int(channel.rxErrors.total), now: t)
        let batch = framesPerMessage
        let next = window.next
        let due = playing + targetFrames - next
        if next < playing + targetFrames / 2 {
            try sendFrames(upTo: playing + targetFrames)
        } else if due >= batch {
            try sendFrames(upTo: next + due / batch * batch)
        }
        // On a line that corrupts frames, send the previous batch once more as well: a frame is then lost
        // only if both copies are (at 40 % message loss: 16 %), and repairs have far less to do.
        if lossy && window.next > next && next - batch >= window.acked {
            report.retransmits += try sendBlock(from: next - batch, count: batch)
        }
        try endStreamIfSent(at: t)
        // Retransmission timeout: the oldest unacknowledged frame has been out longer than the RTO (its
        // message, its repair or every acknowledgement since was lost).
        let rto = lossy ? repairGuardNs : UInt64(options.retransmitTimeoutMs) * 1_000_000
        if window.acked < window.highestSent && elapsed(t, since: window.lastProgressNs) > rto
            && (window.sentAgoNs(window.acked, now: t) ?? 0) > rto {
            try repair(from: window.acked)
            window.lastProgressNs = t
        }
        try syncClock(at: t)
        if elapsed(t, since: channel.lastWriteNs) > UInt64(heartbeatMs) * 1_000_000 {
            try channel.send(.heartbeat)
        }
        // Wait for the board's bytes or the next thing to do, whichever comes first (no fixed poll: a
        // session at 1 kHz wakes about as often as messages arrive, not every 2 ms).
        for m in try channel.receive(timeoutMs: waitMs(at: now, playing: playing, batch: batch)) {
            try handle(m)
        }
    }

    /// Milliseconds until the loop has something to do: the next CLOCK request, the next batch of frames,
    /// a heartbeat, a retransmission timeout, the end of the stream; 1...50.
    func waitMs(at t: UInt64, playing: Int, batch: Int) -> Int {
        var due = sync.nextDueNs
        if window.next < total && window.next < window.acked + Int(prepared.info.bufferCapacity) - 8 {
            due = min(due, intendedNs(max(0, window.next + batch - targetFrames)))
        }
        due = min(due, channel.lastWriteNs + UInt64(heartbeatMs) * 1_000_000)
        if window.acked < window.highestSent {
            due = min(due, window.lastProgressNs + UInt64(options.retransmitTimeoutMs) * 1_000_000)
        }
        if end.stopSent { due = min(due, t + 10_000_000) }  // watching for the board clock to pass the end
        if let release = nextEventReleaseNs { due = min(due, release) }
        let ms = Int((elapsed(due, since: t) + 999_999) / 1_000_000)
        return min(50, max(1, ms))
    }

    func ticksToUs(_ ticks: Int64) -> Double { Double(ticks) * 1e6 / Double(prepared.info.clockHz) }

    /// Sends STOP now and waits briefly for a STATUS showing the output at 0.
    /// Retried every few round trips (as measured), for up to 3 s.
    public func stopMotor() -> Bool {
        let rttMs = Int(sync.tracker.minRTTNs / 1_000_000)
        return channel.stopNow(timeoutMs: min(options.replyTimeoutMs, max(100, 4 * rttMs)))
    }
}

/// CRC-16/CCITT-FALSE over raw duty values, each as 2 little-endian bytes (as in PLAYED).
public func dutyCRC(_ values: [UInt16]) -> UInt16 { CRC16.ofDuties(values) }
