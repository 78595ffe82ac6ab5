// Several boards playing one breath in step: each board keeps its own session (link, clock estimate,
// prepare, motor, ceiling), all are prepared at once, then every player is told one common start instant
// on the host's clock, so frame i is due at the same host instant on every board; each board's clock
// estimate carries that instant to its own ticks. Changes and stop go to every board.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Glibc
import SerialLink

/// Several boards playing one breath timeline in step. Each member is a whole `BreathSession` (its own
/// link, clock estimate, prepare, motor profile and drive ceiling); the ensemble prepares them all at
/// once (a thread each), picks one start instant after the slowest prepare plus the start lead, and plays
/// every board on its own thread from that instant. Frame i is then meant to be felt at the same host
/// instant on every board: the boards differ only by their clock estimates' errors.
///
/// Every member's clock must be one time base: the system clock for ports, or simulated worlds whose host
/// clocks share one epoch (virtual worlds all begin at 0; real-time worlds given the same `epochNs`).
///
/// Live changes go to every board's player, from one frame for all: the frame due `changeLeadMs` after the
/// change (on the first member's clock), or a board's own first changeable frame when that is later (its
/// link is slower than the lead allows: it changes that much later). Without the common frame each player
/// would change from its own first changeable frame, a few frames apart on boards with different links
/// (docs/performance.md, "Several boards in step"). A stop ends every board, motor off. Every member
/// plays at the same frame rate (one frame grid).

///
///     let ensemble = BreathEnsemble([("left", left), ("right", right)])
///     _ = try ensemble.prepare()
///     let report = ensemble.play { _, session throws(SessionError) in try session.play(pattern) }
public final class BreathEnsemble: @unchecked Sendable {
    /// One board of the ensemble: its name (for reports) and its session.
    public struct Member: Sendable {
        public let name: String
        public let session: BreathSession
    }

    public let members: [Member]
    /// How long after the slowest prepare (as the latest member clock reads) frame 0 is felt, ms; by default
    /// `defaultStartLeadMs`.
    public var startLeadMs: Int
    /// 2 s: a board clock several % off its nominal rate looks nominal to prepare's clock exchanges on a
    /// jittery link (the offset it makes in 0.2 s hides in the jitter), and the 300 ms lead of one board
    /// then starts it about that % of the lead off, tens of ms from the other boards in its first half second.
    /// Over a 2 s lead each estimate learns its rate before frame 0, and the boards start in step to about a
    /// millisecond (docs/performance.md, "Several boards in step").
    public static let defaultStartLeadMs = 2000
    /// The start instant of the last `play` (host ns on the members' common clock).
    public private(set) var startAtNs: UInt64? {
        get { startLock.withLock { chosenStart } }
        set { startLock.withLock { chosenStart = newValue } }
    }
    /// (Read by changes from other threads while `play` runs: under a lock.)
    private var chosenStart: UInt64?
    private let startLock = Mutex()
    /// How far ahead of a change its common frame is, ms: enough for the slowest member's message to reach
    /// its board surely (half its slowest round trip, its output lead and a few frames); nil: every board
    /// changes from its own first changeable frame.
    public var changeLeadMs: Int? = 80

    /// Changes and stop for every board, for a `ControlHub` or keys (what arrives goes on at once through
    /// `change` and `stop`).
    public let controls = ControlInbox()
    /// With it, the first board that fails for good stops every board at once (`--all-or-nothing`); without
    /// it, a failed board ends only its part and the others play on (BreathEnsemble+Failure.swift).
    public var allOrNothing = false
    let failures = FirstFailure()

    /// An ensemble of named sessions (names are what reports and errors call the boards).
    public init(_ members: [(name: String, session: BreathSession)], startLeadMs: Int? = nil) {
        self.members = members.map { Member(name: $0.name, session: $0.session) }
        self.startLeadMs = startLeadMs ?? Self.defaultStartLeadMs
        if let first = members.first { controls.clock = first.session.channel.clock }
        controls.wake = { [weak self] in self?.relay() }
    }

    /// Passes what `controls` holds on to every board.
    private func relay() {
        for (change, _, _) in controls.take() { self.change(change) }
        if controls.stopRequested { stop() }
    }

    /// Prepares every board at once, each on a thread of its own; their answers in member order. If a board
    /// fails, every board's motor is stopped and the first failure (in member order) is thrown, naming it.
    @discardableResult
    public func prepare() throws(EnsembleError) -> [Prepared] {
        let results = each { _, member -> Result<Prepared, SessionError> in
            do throws(SessionError) { return .success(try member.session.prepare()) } catch { return .failure(error) }
        }
        var prepared: [Prepared] = []
        for (i, result) in results.enumerated() {
            switch result {
            case .success(let p): prepared.append(p)
            case .failure(let error):
                let off = stopAll()
                throw EnsembleError(board: members[i].name, error: error, motorsOff: off)
            }
        }
        return prepared
    }

    /// The common start instant: the latest of the members' clocks now, plus the start lead.
    public func commonStartNs() -> UInt64 {
        let latest = members.map { $0.session.channel.clock.nowNs() }.max() ?? 0
        return latest + UInt64(startLeadMs) * 1_000_000
    }

    /// Plays every board from one start instant, each on its own thread (`body` plays member `index`'s
    /// session: its pattern shaped for its motor, within its ceiling), and returns when all have ended.
    /// A board whose session fails for good ends only its part (its report carries the error); the others play
    /// on, unless `allOrNothing`: then the first failure stops every board (`EnsembleReport.stoppedBy`).
    /// Every board's motor is off when this returns, as far as its link still works.
    public func play(_ body: @escaping @Sendable (Int, BreathSession) throws(SessionError) -> PlayReport) -> EnsembleReport {
        let start = commonStartNs()
        startAtNs = start
        failures.reset()
        for m in members {
            m.session.startAtNs = start
            m.session.options.rejoinLeadMs = m.session.options.rejoinLeadMs ?? startLeadMs
        }
        let reports = each { i, member -> BoardReport in
            do throws(SessionError) {
                return BoardReport(name: member.name, report: try body(i, member.session))
            } catch {
                var r = member.session.player?.report ?? PlayReport()
                if member.session.player == nil {
                    r.motorOffAtExit = member.session.channel.stopNow(timeoutMs: member.session.options.replyTimeoutMs)
                }
                r.error = error.description
                self.boardFailed(member.name)
                return BoardReport(name: member.name, report: r)
            }
        }
        return report(startAtNs: start, boards: reports)
    }

    /// Changes the breath on every board (from any thread), from one frame for all (see `changeLeadMs`).
    public func change(_ change: BreathChange) {
        let frame = commonFrameNow
        for m in members { m.session.controls.send(change, notBeforeFrame: frame) }
    }

    /// Changes the breath on each named board (each its own change: a strength each), all from one frame
    /// (see `changeLeadMs`).
    public func change(_ changes: [(board: String, change: BreathChange)]) {
        let frame = commonFrameNow
        for (board, change) in changes {
            for m in members where m.name == board { m.session.controls.send(change, notBeforeFrame: frame) }
        }
    }

    /// The frame every board changes from for a change made now (on the first member's clock).
    private var commonFrameNow: Int? { members.first.flatMap { commonFrame(atNs: $0.session.channel.clock.nowNs()) } }

    /// The frame every board changes from for a change made at host time `t`: the first frame due at
    /// `changeLeadMs` after it or later; nil before `play` or without a lead.
    public func commonFrame(atNs t: UInt64) -> Int? {
        guard let start = startAtNs, let lead = changeLeadMs, let rate = members.first?.session.options.frameRate else { return nil }
        let at = t + UInt64(lead) * 1_000_000
        guard at > start else { return 0 }
        return Int(((at - start) * UInt64(rate) + 999_999_999) / 1_000_000_000)
    }

    /// Ends the breath on every board now, motor off (from any thread).
    public func stop() {
        for m in members { m.session.stop() }
    }

    /// Stops every board's motor now (a board that never played, or after a failed prepare); whether each
    /// board confirmed it, in member order.
    @discardableResult
    public func stopAll() -> [Bool] {
        members.map { $0.session.channel.stopNow(timeoutMs: $0.session.options.replyTimeoutMs) }
    }

    /// Runs `work` for every member on a thread of its own and returns the results in member order.
    private func each<T>(_ work: @escaping (Int, Member) -> T) -> [T] {
        let box = ResultBox<T>(count: members.count)
        var threads: [pthread_t] = []
        for (i, member) in members.enumerated() {
            threads.append(startThread { box.set(i, work(i, member)) })
        }
        for t in threads { pthread_join(t, nil) }
        return box.values.map { $0! }
    }
}

/// The results of threads, one slot each.
private final class ResultBox<T>: @unchecked Sendable {
    private let lock = Mutex()
    private var slots: [T?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: T) { lock.withLock { slots[i] = value } }
    var values: [T?] { lock.withLock { slots } }
}

/// One board's part of an ensemble's breath.
public struct BoardReport: Sendable {
    public var name: String
    public var report: PlayReport

    public init(name: String, report: PlayReport) {
        self.name = name
        self.report = report
    }
}

/// What every board of an ensemble played.
public struct EnsembleReport: Sendable {
    /// The instant frame 0 was meant to be felt on every board (host ns on the members' common clock).
    public var startAtNs: UInt64
    public var boards: [BoardReport]
    /// Every board's motor was confirmed off at its end.
    public var motorOffAtExit: Bool { boards.allSatisfy(\.report.motorOffAtExit) }
    /// Some board was stopped (a stop request, a signal), not by another board's failure.
    public var interrupted: Bool { stoppedBy == nil && boards.contains { $0.report.interrupted } }
    /// With `allOrNothing`: the board whose failure stopped every board (nil: none did).
    public var stoppedBy: String?
}

/// A board of an ensemble failed: which, and why.
public struct EnsembleError: Error, Sendable, CustomStringConvertible {
    public var board: String
    public var error: SessionError
    /// Whether each board's motor was confirmed off after the failure, in member order (empty: not known).
    public var motorsOff: [Bool] = []
    public var description: String { "board \(board): \(error.description)" }
}
