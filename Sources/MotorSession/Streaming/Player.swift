// Streams frames to a prepared board: pre-fill, START on the board clock, keep the buffer topped up
// within the board's window, resend what was lost, and let the stream end by itself on the board.
// Its state is a few parts (FrameStream, StreamTiming, LinePolicy, BoardEvidence, LiveEdits, RecoveryLog);
// the report is built from them in Player+Report.swift. Sending and repairing: Player+Send.swift. Board
// messages: Player+Messages.swift. Clock tracking and re-timing: Player+Clock.swift. Reconnecting and
// re-preparing: Player+Recovery.swift. Ending the stream: Player+End.swift. Live changes: Player+Live.swift.
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import SerialLink

/// A snapshot for the live view, about 10 times a second.
public struct LiveStatus: Sendable {
    /// Breath time, s: seconds since the breath's first frame is meant to be felt, the warm-up excluded
    /// (negative before it: during the start lead and the warm-up). The origin a `BreathPlan` samples at and
    /// a `state` event's `elapsed_s` reports, so an app that changes the breath when `elapsed` passes 1.0
    /// changes it at 1.0 s of breath:
    ///
    ///     session.onStatus = { if $0.elapsed >= 1.0 && !sent { session.change(.strength(0.3)); sent = true } }
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
    /// Called with every PLAYED report of the current stream, for callers that check the board's evidence.
    public var onPlayed: ((Played) -> Void)?
    /// Changes to the breath while it plays (from any thread); needs a steerable source (`SteerableFrames`).
    public let controls: ControlInbox
    /// Phase starts and changes as they reach the motor, with their board ticks.
    public var onEvent: ((SessionEvent) -> Void)?
    /// Host time (on this player's clock) at which frame 0 is to be felt, chosen by a caller that starts
    /// several boards together (`BreathEnsemble`); nil: `startLeadMs` after `play` begins. Frame 0's board
    /// tick is the clock estimate's tick at this instant (`StreamTiming.start`).
    public var startAtNs: UInt64?
    /// Sample the board's vibration sensor while playing (boards with INFO capability bit 4; others ignore
    /// it): SENSE when `play` begins, SENSE rate 0 when it ends (Player+Sensing.swift). `options.sensing`
    /// at first.
    public var sensing: SensingRequest?
    /// Where the samples and the played drive go (made by `play` when `sensing` is set and none is given).
    public var vibration: VibrationRecorder?

    // The parts; each extension file works on a few of them.
    /// The frames, the send window over the board's buffer, the end of the stream.
    var stream = FrameStream()
    /// The schedule on the host clock, the board's timebase, the CLOCK exchanges.
    var timing: StreamTiming
    /// The line's condition and the repair policy it calls for.
    var line: LinePolicy
    /// The board's reports, judged.
    var evidence: BoardEvidence
    /// Live changes waiting for the motor, events waiting for their tick.
    var edits = LiveEdits()
    /// Reconnects and what they cost; the live line's state.
    var recovery = RecoveryLog()
    /// How the session ended, and the numbers taken at its end (see `report`).
    var outcome: PlayOutcome

    public init(channel: BoardChannel, prepared: Prepared, options: SessionOptions, controls: ControlInbox = ControlInbox()) {
        self.channel = channel
        self.controls = controls
        self.prepared = prepared
        self.options = options
        sensing = options.sensing
        line = LinePolicy(options: options, capacity: Int(prepared.info.bufferCapacity), format: prepared.config.dutyFormat)
        timing = StreamTiming(rate: options.frameRate, tracker: prepared.clock,
                              schedule: SyncSchedule(denseMs: options.denseSyncMs, denseS: options.denseSyncS, steadyMs: 0,
                                                     steadyBurst: options.syncBurst, fastMs: options.fastLinkSyncMs),
                              firstClockRequestNs: prepared.clock.samples.first?.sentNs, profile: options.linkProfile)
        evidence = BoardEvidence(clockHz: prepared.info.clockHz, rate: options.frameRate)
        outcome = PlayOutcome(prepareMs: Double(prepared.prepareNs) / 1e6)
        controls.clock = channel.clock
        let channel = self.channel
        controls.wake = { channel.link.wake() }
        timing.schedule.steadyMs = line.steadySyncMs
        keepExchangesLonger(spacingMs: line.steadySyncMs)
    }

    /// How long the board is to hold the next CLOCK request sent at `t` (`StreamTiming.holdMs`), when the
    /// session asks it to (`SessionOptions.holdClockRequests`) and it announced revision 1.4 or later at
    /// prepare; nil: a plain request.
    func clockHoldMs(at t: UInt64) -> Int? {
        guard options.holdClockRequests, (prepared.info.revision ?? 0) >= BoardMessage.clockHoldRevision else { return nil }
        return timing.holdMs(at: t)
    }

    /// The current board clock estimate.
    public var clockEstimate: ClockEstimate? { timing.sync.tracker.estimate() }
    public var clockSamples: [ClockSample] { timing.sync.tracker.samples }
    /// When prepare sent its first CLOCK request (host ns): the clock estimate's age at the first frame.
    public var firstClockRequestNs: UInt64? { timing.firstClockRequestNs }
    /// Host time at which session frame 0 is meant to be felt.
    public var sessionStartNs: UInt64 { timing.sessionStartNs }
    /// The timebase last sent to the board (wire indices).
    public var timebase: Timebase? { timing.timebase }
    /// The session index of wire index 0 for each board connection (one entry per prepare).
    public var wireBases: [Int] { stream.wireBases }
    /// Every START sent, as (session index of wire 0, START) — for harnesses that check true timing.
    public var starts: [(wireBase: Int, start: Start)] { timing.starts }
    /// The longest the host stays quiet: `heartbeatMs`, but at most a quarter of the failsafe time, so a
    /// short `--failsafe-ms` (down to 20 ms) is fed too, not only the default 200 ms.
    var heartbeatMs: Int { min(options.heartbeatMs, max(1, Int(options.failsafeMs) / 4)) }

    var rate: Int { options.frameRate }
    var now: UInt64 { channel.clock.nowNs() }
    /// The session's clock now (host monotonic, or virtual in a simulation): events' `hostNs` are on it.
    public var clockNowNs: UInt64 { now }
    /// Frames the board buffers.
    var capacity: Int { Int(prepared.info.bufferCapacity) }

    /// Host time at which session frame `i` is meant to be felt.
    public func intendedNs(_ i: Int) -> UInt64 { timing.intendedNs(i) }

    func wire(_ i: Int) -> UInt32 { stream.wire(i) }

    /// A round trip and a half, at least 50 ms (see `LinePolicy.repairGuardNs`).
    var repairGuardNs: UInt64 { line.repairGuardNs(minRTTNs: timing.sync.tracker.minRTTNs) }

    /// Plays `source` to the end (or until `shouldStop` returns true). The motor is off when it returns,
    /// also when it throws, as far as the link still works; `report` is complete either way.
    public func play(_ source: FrameSource, onStatus: (LiveStatus) -> Void = { _ in },
                     shouldStop: () -> Bool = { false }) throws(SessionError) -> PlayReport {
        stream.load(source)
        // On a real clock, a thread of its own keeps the failsafe fed through host stalls. (In virtual time
        // the loop is the only thing that moves time, so it sends its own heartbeats.)
        let keepAlive = options.keepAliveThread && channel.clock is SystemClock
            ? KeepAlive(channel: channel, idleMs: heartbeatMs) : nil
        func finish() {
            releaseEvents(all: true)
            stopSensing()
            keepAlive?.stop()
            closeReport()
            outcome.motorOffAtExit = stopMotor()
        }
        do {
            try run(onStatus: onStatus, shouldStop: shouldStop)
        } catch {
            finish()
            outcome.error = error.description
            throw error
        }
        finish()
        return report
    }

    func liveStatus(at t: UInt64) -> LiveStatus {
        let warmup = Double(stream.source?.warmupFrames ?? 0) / Double(rate)
        return LiveStatus(elapsed: (Double(t) - Double(timing.sessionStartNs)) / 1e9 - warmup, framesPlayed: stream.window.playedThrough,
                   framesTotal: stream.total, board: line.health.board, retransmits: stream.retransmits,
                   rttUs: line.health.rttUs, driftPPM: timing.sync.tracker.estimate()?.driftPPM, state: recovery.state)
    }

    private func run(onStatus: (LiveStatus) -> Void, shouldStop: () -> Bool) throws(SessionError) {
        timing.sessionStartNs = startAtNs ?? now + UInt64(options.startLeadMs) * 1_000_000
        try begin(at: 0)
        try startSensing()
        var nextViewNs: UInt64 = 0
        while !finished {
            let t = now
            if shouldStop() || controls.stopRequested {
                outcome.interrupted = true
                return
            }
            if t > intendedNs(stream.total) + 3_000_000_000 {
                throw .timeout("the board to finish the stream (it stopped reporting after the last frames)")
            }
            do throws(SessionError) {
                try applyChanges()
                try pump(at: t)
                if elapsed(now, since: channel.lastHeardNs) > UInt64(options.silenceTimeoutMs) * 1_000_000 {
                    throw SessionError.boardLost("the board stopped answering for \(options.silenceTimeoutMs) ms")
                }
            } catch {
                try recover(from: error, onStatus: onStatus, shouldStop: shouldStop)
            }
            releaseEvents()
            if t >= nextViewNs {
                nextViewNs = t + 100_000_000
                onStatus(liveStatus(at: t))
            }
        }
        // The board's last PLAYED reports were lost on the line: those frames could not be checked.
        evidence.unreported += max(0, stream.total - stream.window.playedThrough)
    }

    /// Sends STOP now and waits briefly for a STATUS showing the output at 0.
    /// Retried every few round trips (as measured), for up to 3 s.
    public func stopMotor() -> Bool {
        let rttMs = Int(timing.sync.tracker.minRTTNs / 1_000_000)
        return channel.stopNow(timeoutMs: min(options.replyTimeoutMs, max(100, 4 * rttMs)))
    }
}

/// CRC-16/CCITT-FALSE over raw duty values, each as 2 little-endian bytes (as in PLAYED).
public func dutyCRC(_ values: [UInt16]) -> UInt16 { CRC16.ofDuties(values) }
