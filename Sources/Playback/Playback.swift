// The one playback layer under every command, the page and the benches: a session on one board or several
// in step (one board is an ensemble of one), its shaping from each board's motor and profile, the
// breath-time status, a simulated board judged on its true clock, the control hub fed, and one result.
// SPDX-License-Identifier: Apache-2.0

import BoardAccess
import Breath
import HostPlatform
import MotorControl
import MotorSession
import SerialLink
import SimBoard

/// A breath played on the boards of a ``Stage``: prepared at once, shaped for each board's motor and
/// calibration profile, started at one instant (several boards) and stopped with every motor off. Every
/// command that plays goes through it, so a test of it is a test of what the command runs.
///
/// What it does that each caller would otherwise repeat:
/// - the status callback gets breath time (``LiveStatus/elapsed``, warm-up excluded), per board;
/// - a simulated board's report carries the figures judged on its true clock (start and schedule error,
///   underruns, wrong duties), whoever drives it;
/// - a signal (``StopSignal``) stops it by default, motor off;
/// - an attached ``ControlHub`` gets the events, the `state` fields, each board's routing and the greeting.
///
///     let stage = try Stage.open(.simulated())
///     defer { stage.close() }
///     let playback = Playback(stage)
///     _ = try playback.prepare()
///     let result = playback.play(.breath(BreathPlan(pattern: try BreathPattern.parse("4-7-8"), options: BreathOptions())))
///     print(EndLine.text(result.boards[0].report))
public final class Playback: @unchecked Sendable {
    /// One board: its name, its connection and its session.
    public struct Board: Sendable {
        public let name: String
        public let connection: BoardConnection
        public let session: BreathSession
    }

    /// A board once prepared: its answers and how its frames are shaped.
    public struct PreparedBoard: Sendable {
        public let name: String
        public let prepared: Prepared
        public let shaping: BoardShaping
    }

    public let boards: [Board]
    /// Each board's place in a spatial breath (several boards; empty: all alike).
    public let placements: [Placement]
    /// How the frames are shaped (every board alike, completed by each board's motor and profile).
    public var shaping: Shaping
    /// With several boards: the first board that fails for good stops every board.
    public var allOrNothing: Bool {
        get { ensemble?.allOrNothing ?? false }
        set { ensemble?.allOrNothing = newValue }
    }
    /// About ten times a second per board while it plays (on that board's thread): breath time.
    public var onStatus: (@Sendable (_ board: Int, LiveStatus) -> Void)?
    /// Board `k` failed for good while the others play on (several boards, without `allOrNothing`).
    public var onBoardEnded: (@Sendable (_ board: Int) -> Void)?
    /// Board `k`'s player and frames exist, before its first frame is sent (benches that watch a simulated
    /// board: `truth` is its true-clock judge, whose `forward` sees every frame it sees).
    public var onWillPlay: (@Sendable (_ board: Int, Player, FrameSource, _ truth: TrueTiming?) -> Void)?
    /// Board `k`'s session events (phases, changes applied or refused), on its thread, after the hub's.
    public var onEvent: (@Sendable (_ board: Int, SessionEvent) -> Void)?
    /// Checked by board `k`'s playing loop besides `shouldStop` (a bench's disturbances at world times).
    public var boardShouldStop: (@Sendable (_ board: Int) -> Bool)?
    /// Checked by every board's playing loop: true stops the session, motor off. A signal by default.
    public var shouldStop: @Sendable () -> Bool = { StopSignal.requested }
    /// The boards as the last `prepare` left them.
    public private(set) var prepared: [PreparedBoard] = []
    /// The control hub steering the session, once attached (``attach(_:)``).
    public internal(set) var hub: ControlHub?

    let ensemble: BreathEnsemble?
    let started: StartedBoards

    /// A session on every board of `stage`, with `options` (the frame rate, failsafe, line share...).
    /// The session options a breath plays with unless the caller says otherwise: `SessionOptions`' own,
    /// with braking allowed (an ERM on an H-bridge is driven in reverse to stop sooner, as the shaping's
    /// compensation assumes). What play, serve, palette and an app get by default.
    public static var defaultOptions: SessionOptions {
        var o = SessionOptions()
        o.allowReverse = true
        return o
    }

    /// Several boards start `startLeadMs` after the slowest prepare (nil: `BreathEnsemble`'s default).
    public init(_ stage: Stage, options: SessionOptions = Playback.defaultOptions, shaping: Shaping = Shaping(),
                placements: [Placement] = [], startLeadMs: Int? = nil) {
        boards = stage.boards.map { Board(name: $0.name, connection: $0.connection, session: $0.connection.session(options: options)) }
        self.placements = placements
        self.shaping = shaping
        started = StartedBoards(count: boards.count)
        ensemble = boards.count > 1 ? BreathEnsemble(boards.map { ($0.name, $0.session) }, startLeadMs: startLeadMs) : nil
        for (k, b) in boards.enumerated() { wire(b, k) }
    }

    /// Board `k`'s breath as it plays now (nil: a fixed pattern, or not started).
    public func steerable(_ k: Int) -> (any SteerableFrames)? { started.steerable(k) }

    /// With several boards: how far ahead of a change its common frame is, ms (`BreathEnsemble.changeLeadMs`).
    public var changeLeadMs: Int? {
        get { ensemble?.changeLeadMs }
        set { ensemble?.changeLeadMs = newValue }
    }

    /// The start instant of several boards' last play (host ns on their common clock).
    public var startAtNs: UInt64? { ensemble?.startAtNs }

    /// With several boards: the common frame a change made at host time `t` takes effect from.
    public func commonFrame(atNs t: UInt64) -> Int? { ensemble?.commonFrame(atNs: t) }

    /// Where changes and stop go: the one board's session, or the ensemble that passes them to every board.
    public var inbox: ControlInbox { ensemble?.controls ?? boards[0].session.controls }

    /// Changes the playing breath on every board (from any thread).
    public func change(_ change: BreathChange) {
        if let ensemble { ensemble.change(change) } else { boards[0].session.change(change) }
    }

    /// Changes the playing breath on every board from breath time `t` seconds (the warm-up excluded: the
    /// origin ``LiveStatus/elapsed`` counts from), sent now. A time already past (or too near for the link)
    /// changes from the first frame each board may still change.
    ///
    ///     playback.onStatus = { _, s in if s.elapsed >= 0.5 && !sent { playback.change(.strength(0.3), atBreathTime: 1.0) } }
    public func change(_ change: BreathChange, atBreathTime t: Double) {
        for (k, b) in boards.enumerated() {
            let frame = started.warmupFrames(k) + Int((t * Double(b.session.options.frameRate)).rounded())
            b.session.controls.send(change, notBeforeFrame: max(0, frame))
        }
    }

    /// Ends the playing breath on every board, motors off (from any thread).
    public func stop() {
        if let ensemble { ensemble.stop() } else { boards[0].session.stop() }
    }

    /// The session's hooks on board `k`: its place, breath-time status, true-clock judging, the stop.
    private func wire(_ b: Board, _ k: Int) {
        let session = b.session, world = b.connection.world, started = started
        if k < placements.count {
            session.spread = placements[k].spread
            session.startOffsetNs = UInt64(placements[k].offsetMs) * 1_000_000
        }
        session.willPlay = { [weak self] player, frames in
            world?.recordPlays = false  // judged as it plays: an hours-long session keeps no record
            let truth = world.map { TrueTiming(world: $0, player: player, expected: frames) }
            started.set(k, steerable: frames.steerable, warmupFrames: frames.warmupFrames, truth: truth)
            self?.onWillPlay?(k, player, frames, truth)
        }
        session.onStatus = { [weak self] live in self?.status(k, live) }
        session.shouldStop = { [weak self] in
            guard let self else { return false }
            return self.shouldStop() || self.boardShouldStop?(k) == true
        }
        session.onEvent = { [weak self] event in self?.event(k, event) }
    }

    /// Prepares every board (at once), then finds each board's shaping. Throws a one-line error naming
    /// the board, every motor stopped.
    @discardableResult
    public func prepare() throws(PlaybackError) -> [PreparedBoard] {
        let answers: [Prepared]
        if let ensemble {
            do { answers = try ensemble.prepare() } catch {
                throw PlaybackError(message: error.description, motorsOff: error.motorsOff, sessionError: error.error)
            }
        } else {
            let session = boards[0].session
            do { answers = [try session.prepare()] } catch {
                let off = session.channel.stopNow(timeoutMs: session.options.replyTimeoutMs)
                throw PlaybackError(message: Self.explain(error, port: boards[0].connection.portPath), motorsOff: [off], sessionError: error)
            }
        }
        var ready: [PreparedBoard] = []
        for (k, p) in answers.enumerated() {
            let s: BoardShaping
            do { s = try shaping.forBoard(p) } catch {
                let off = boards.map { $0.session.channel.stopNow(timeoutMs: $0.session.options.replyTimeoutMs) }
                throw PlaybackError(message: "\(error)", motorsOff: off, sessionError: nil)
            }
            ready.append(PreparedBoard(name: boards[k].name, prepared: p, shaping: s))
        }
        prepared = ready
        greet()
        return ready
    }

    /// Plays `content` on every board (preparing first if `prepare` was not called since the last play) and
    /// returns when it ended, was stopped, or failed: the result says which, every motor off as far as the
    /// links still work.
    public func play(_ content: PlaybackContent) -> PlaybackResult {
        if prepared.isEmpty {
            do { try prepare() } catch { return result(failedToPrepare: error) }
        }
        let shapes = prepared.map(\.shaping)
        defer { prepared = [] }  // a board must be prepared again for another breath
        var result: PlaybackResult
        if let ensemble {
            let report = ensemble.play { [weak self] k, session throws(SessionError) in
                do throws(SessionError) { return try Self.play(content, on: session, shaped: shapes[k]) } catch {
                    self?.boardEnded(k)  // the others play on: the next board still playing speaks for all
                    throw error
                }
            }
            result = PlaybackResult(boards: report.boards, placements: placements, stoppedBy: report.stoppedBy)
            result.interrupted = report.interrupted
        } else {
            let session = boards[0].session
            var report: PlayReport
            do { report = try Self.play(content, on: session, shaped: shapes[0]) } catch {
                report = session.player?.report ?? PlayReport()
                if session.player == nil { report.motorOffAtExit = session.channel.stopNow(timeoutMs: session.options.replyTimeoutMs) }
                report.interrupted = report.interrupted || StopSignal.requested
                report.error = StopSignal.requested ? nil : Self.explain(error, port: boards[0].connection.portPath)
            }
            result = PlaybackResult(boards: [BoardReport(name: boards[0].name, report: report)], placements: placements, stoppedBy: nil)
            result.interrupted = report.interrupted
        }
        for k in result.boards.indices {
            result.boards[k].report.profile = shapes[k].profile
            started.truth(k)?.judge(&result.boards[k].report)
        }
        result.signal = StopSignal.pending
        return result
    }

    /// `content` on one board's session, shaped as `shaped` says (from that board's own thread).
    static func play(_ content: PlaybackContent, on session: BreathSession, shaped s: BoardShaping) throws(SessionError) -> PlayReport {
        switch content {
        case .breath(let plan, let loop):
            return try session.play(plan.pattern, breath: plan.options, loop: loop, motor: s.motor, compensate: s.compensate,
                                    warmup: s.warmupSeconds, feltRange: s.feltRange, warmupMargin: s.warmupMargin)
        case .haptics(let pattern, let duration):
            return try session.play(pattern: pattern, duration: duration, motor: s.motor, compensate: s.compensate,
                                    warmup: s.warmupSeconds, feltRange: s.feltRange, warmupMargin: s.warmupMargin)
        }
    }

    /// The result of a session whose prepare failed: each board's report says so, its motor as stopped
    /// (a signal during prepare: interrupted, no error).
    public func result(failedToPrepare error: PlaybackError) -> PlaybackResult {
        let signal = StopSignal.pending
        let reports = boards.indices.map { k in
            var r = PlayReport()
            r.error = signal == 0 ? error.message : nil
            r.interrupted = signal != 0
            r.motorOffAtExit = k < error.motorsOff.count && error.motorsOff[k]
            return BoardReport(name: boards[k].name, report: r)
        }
        var result = PlaybackResult(boards: reports, placements: placements, stoppedBy: nil)
        result.prepareFailure = signal == 0 ? error.message : nil
        result.interrupted = signal != 0
        result.signal = signal
        return result
    }

    /// A session error as one line, with the ModemManager hint when a port's board never said hello.
    static func explain(_ error: SessionError, port: String?) -> String {
        var message = error.description
        if case .noHello = error, let port, let hint = USBSerialTuning.modemManagerHint(forPort: port) { message += "; \(hint)" }
        return message
    }

    private func boardEnded(_ k: Int) {
        hub?.boardEnded(boards[k].name)
        onBoardEnded?(k)
    }

    /// A status from board `k`: the hub's `state` fields, then the caller's callback.
    private func status(_ k: Int, _ live: LiveStatus) {
        if let hub { noteState(k, live, hub: hub) }
        onStatus?(k, live)
    }
}

/// A prepare that failed: the one-line reason (naming the board when there are several) and which motors
/// were confirmed off.
public struct PlaybackError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var motorsOff: [Bool]
    /// The session's own error, when a session gave it (nil: the profile lookup failed).
    public var sessionError: SessionError?
    public var description: String { message }
}

/// What each board's player gave as it started (from the boards' own threads, under a lock): its frames
/// (for the `state` event's phase) and a simulated board's judge of its true timing.
final class StartedBoards: @unchecked Sendable {
    private let lock = Mutex()
    private var steerables: [(any SteerableFrames)?]
    private var warmups: [Int]
    private var truths: [TrueTiming?]

    init(count: Int) {
        steerables = Array(repeating: nil, count: count)
        warmups = Array(repeating: 0, count: count)
        truths = Array(repeating: nil, count: count)
    }

    func set(_ k: Int, steerable: (any SteerableFrames)?, warmupFrames: Int, truth: TrueTiming?) {
        lock.withLock {
            steerables[k] = steerable
            warmups[k] = warmupFrames
            truths[k] = truth
        }
    }

    func warmupFrames(_ k: Int) -> Int { lock.withLock { warmups[k] } }

    func steerable(_ k: Int) -> (any SteerableFrames)? { lock.withLock { steerables[k] } }
    func truth(_ k: Int) -> TrueTiming? { lock.withLock { truths[k] } }
}
