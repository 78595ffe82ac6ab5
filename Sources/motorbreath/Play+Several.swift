// play on several boards in step: each board opened, prepared (at once) and shaped for its own motor and
// profile, all started at one instant (BreathEnsemble), a live line naming each board, and a report per board.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import Breath
import Calibration
import HostPlatform
import MotorControl
import MotorSession
import SimBoard

extension Play {
    /// Plays `built` on every board of the layout in step; the end line or --json names each board.
    func playSeveral(_ built: BuiltBreath) throws {
        let layout = board.layout
        // Simulated boards share one host clock: virtual worlds all begin at 0, real-time ones at one epoch.
        let epoch = MonotonicClock.nowNs()
        let places = try board.places()
        var connections: [BoardConnection] = []
        defer { connections.forEach { $0.close() } }
        for (k, b) in layout.enumerated() {
            switch b.place {
            case .port(let path):
                do { connections.append(try BoardConnection.port(path, settings: board.connection.settings)) } catch {
                    if json {
                        try printJSON(SeveralReport(boards: layout.map { other in
                            var r = PlayReport()
                            r.error = other.name == b.name ? "the port could not be opened" : "another board's port could not be opened"
                            return BoardReport(name: other.name, report: r)
                        }, places: places))
                    }
                    throw fail("board \(b.name): \(error)")
                }
            case .simulated(let link):
                connections.append(.simulated(SimWorld(impairments: link?.impairments ?? LinkImpairments(),
                                                       pacing: virtualTime ? .virtual : .realTime, seed: seed &+ UInt64(k), epochNs: epoch)))
            }
        }
        let sessions = connections.map { $0.session(options: sessionOptions) }
        for (session, place) in zip(sessions, places) {
            session.spread = place.spread
            session.startOffsetNs = UInt64(place.offsetMs) * 1_000_000
        }
        let ensemble = BreathEnsemble(zip(layout, sessions).map { ($0.name, $1) })
        ensemble.allOrNothing = allOrNothing
        let prepared: [Prepared]
        do { prepared = try ensemble.prepare() } catch {
            if json {
                try printJSON(SeveralReport(boards: layout.indices.map { BoardReport(name: layout[$0].name, report: failedReport(error, board: $0)) },
                                            places: places))
            }
            throw fail(error)
        }
        let view = SeveralView(names: layout.map(\.name), quiet: quiet)
        defer { view.finish() }
        // Keys and controlling programs steer every board (through the ensemble), or one board's strength;
        // the events are the first board's (they play in step), and the answers to a board's own change.
        let names = layout.map(\.name)
        var controls: PlayControls?
        defer { controls?.stop() }
        controls = try startControls(session: sessions[0], plan: built.plan, prepared: prepared[0], inbox: ensemble.controls,
                                     greeting: { pattern in
            ControlEvents.prepared((0..<names.count).map { k in
                (names[k], prepared[k], ["at": places[k].spread.position, "strength": places[k].spread.gain, "offset_ms": places[k].offsetMs])
            }, pattern: pattern)
        }, setUp: { hub in
            hub.boards = names
            hub.sendToBoards = { [ensemble] changes in ensemble.change(changes) }
            for (k, s) in sessions.enumerated() {
                let clock = s.channel.clock, name = names[k]
                s.onEvent = { event in
                    if let line = hub.line(for: event, nowNs: clock.nowNs(), board: name) { hub.emit(line) }
                }
            }
        })
        let hub = controls?.hub
        view.controls = hub
        // Set from each board's own thread as its player starts: under a lock.
        let started = StartedBoards(count: layout.count)
        var shaping: [BoardShaping] = []
        for (k, p) in prepared.enumerated() {
            if !quiet { Stderr.write("\(layout[k].name): ") }
            announce(p)
            shaping.append(try self.shaping(for: p, session: sessions[k]))
            let world = connections[k].world
            let rate = frameRate
            sessions[k].willPlay = { player, frames in
                if let world { world.recordPlays = false }
                started.set(k, frames: frames, warmup: Double(frames.warmupFrames) / Double(rate),
                            truth: world.map { TrueTiming(world: $0, player: player, expected: frames) })
            }
            let name = names[k], board = p.info.displayName
            sessions[k].onStatus = { live in
                view.show(k, live)
                guard let hub else { return }
                var breathTime = live
                let own = started.frames(k)
                breathTime.elapsed -= own.warmup
                let fields = PlayControls.stateFields(breathTime, frames: own.steerable, board: board)
                hub.boardAway(name, live.state.hasPrefix("reconnecting"))
                if name == hub.leadBoard { hub.noteSessionState(fields) }
                hub.noteBoardState(name, fields.filter { ["board", "frames_played", "frames_total", "link", "retransmits", "rtt_us"].contains($0.key) })
            }
            sessions[k].shouldStop = { Signals.pending != 0 }
        }
        let loop = self.loop, compensate = !noCompensation, warmup = warmupSeconds
        let shapes = shaping
        var result = ensemble.play { k, session throws(SessionError) in
            do throws(SessionError) {
                return try Play.play(built, on: session, shaped: shapes[k], loop: loop, compensate: compensate, warmup: warmup)
            } catch {
                view.ended(k)
                hub?.boardEnded(names[k])  // the next board still playing speaks for all
                throw error
            }
        }
        view.finish()
        for k in result.boards.indices {
            result.boards[k].report.profile = shaping[k].profile
            started.truth(k)?.judge(&result.boards[k].report)
        }
        let report = SeveralReport(boards: result.boards, places: places)
        controls?.ended(report, error: Self.failureLine(result))
        controls?.stop()
        if json {
            try printJSON(report)
        } else if !quiet {
            for b in result.boards {
                let r = b.report
                Stderr.write("\(b.name): played \(r.framesPlayed)/\(r.framesTotal) frames, \(r.framesLost) lost, \(r.underruns) underruns, \(r.playedLate) late, start error \(r.startErrorUs) µs, motor \(r.motorOffAtExit ? "off" : "STATE UNKNOWN")\(r.error.map { ", " + $0 } ?? "")\n")
            }
        }
        if result.interrupted || Signals.pending != 0 { throw ExitCode(Signals.pending != 0 ? Signals.exitCode : 130) }
        try failIfABoardFailed(result)
        if let on = result.boards.first(where: { !$0.report.motorOffAtExit }) { throw fail("board \(on.name): could not confirm the motor is off") }
    }

    /// The report of board `k`, which never played: the ensemble's prepare failed (every motor was stopped;
    /// confirmed or not, as the board answered).
    private func failedReport(_ error: EnsembleError, board k: Int) -> PlayReport {
        var r = PlayReport()
        r.error = error.description
        r.motorOffAtExit = k < error.motorsOff.count && error.motorsOff[k]
        return r
    }
}

/// What each board's player gave as it started (from the boards' own threads): its frames and warm-up (the
/// state event's breath time and phase), and a simulated board's judge of its true timing.
private final class StartedBoards: @unchecked Sendable {
    private let lock = Mutex()
    private var frames: [(steerable: (any SteerableFrames)?, warmup: Double)?]
    private var truths: [TrueTiming?]

    init(count: Int) {
        frames = Array(repeating: nil, count: count)
        truths = Array(repeating: nil, count: count)
    }

    func set(_ k: Int, frames source: FrameSource, warmup: Double, truth: TrueTiming?) {
        lock.withLock {
            frames[k] = (source.steerable, warmup)
            truths[k] = truth
        }
    }

    func frames(_ k: Int) -> (steerable: (any SteerableFrames)?, warmup: Double) { lock.withLock { frames[k] ?? (nil, 0) } }
    func truth(_ k: Int) -> TrueTiming? { lock.withLock { truths[k] } }
}

/// How one board's breath is shaped: its calibration profile (name, felt range) and its motor.
struct BoardShaping: Sendable {
    var profile: String?
    var feltRange: FeltRange?
    var motor: MotorProfile
    var warmupMargin: Double

    /// Shaped for `motor`, with `calibrated`'s felt range and its warm-up margin (the reference model's 1.5
    /// without a profile: its stop threshold is a guess, a measured one needs less).
    init(_ calibrated: CalibrationProfile?, motor: MotorProfile) {
        profile = calibrated?.name
        feltRange = calibrated?.feltRange
        self.motor = motor
        warmupMargin = calibrated == nil ? 1.5 : CalibrationProfile.warmupMargin
    }
}

/// --json with several boards: one report per board, by name and place, in the layout's order.
struct SeveralReport: Encodable {
    var boards: [BoardReport]
    /// Each board's place (--spread, --actuator), in the same order; empty: not known.
    var places: [(spread: BreathSpread, offsetMs: Int)] = []

    enum CodingKeys: String, CodingKey {
        case boards, spread
        case motorOffAtExit = "motor_off_at_exit"
    }
    struct Named: Encodable {
        var name: String
        var at: Double?
        var strength: Double?
        var offsetMs: Int?
        var report: PlayReport

        enum CodingKeys: String, CodingKey {
            case name, at, strength, report
            case offsetMs = "offset_ms"
        }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(boards.enumerated().map { k, b in
            let place = k < places.count ? places[k] : nil
            return Named(name: b.name, at: place?.spread.position, strength: place?.spread.gain, offsetMs: place?.offsetMs, report: b.report)
        }, forKey: .boards)
        try c.encodeIfPresent(places.first.map { $0.spread.travel == .rise ? "rise:\(OptionValue.trim($0.spread.fraction))" : "together" }, forKey: .spread)
        try c.encode(boards.allSatisfy(\.report.motorOffAtExit), forKey: .motorOffAtExit)
    }
}

/// The live line for several boards: each board's name, frames played and buffer, on a terminal; one
/// line a second otherwise is too much, so off a terminal it stays quiet until the end.
final class SeveralView: @unchecked Sendable {
    /// What the line shows of one board.
    struct Board: Equatable {
        var elapsed: Double
        var played: Int
        var total: Int
        var fill: Int?
        var state: String
    }

    private let names: [String]
    private let lock = Mutex()
    private var latest: [Board?]
    private var gone: Set<Int> = []
    private let line: LiveLine?
    /// The controls' values (intensity, pace), shown after the boards so a key's effect is seen.
    var controls: ControlHub?

    init(names: [String], quiet: Bool) {
        self.names = names
        latest = Array(repeating: nil, count: names.count)
        line = !quiet && Stderr.isTerminal ? LiveLine() : nil
    }

    /// Board `k`'s status (from its player's thread); the first board still playing redraws the line.
    func show(_ k: Int, _ s: LiveStatus) {
        let board = Board(elapsed: s.elapsed, played: s.framesPlayed, total: s.framesTotal, fill: s.board.map { Int($0.fill) }, state: s.state)
        let text: String? = lock.withLock {
            guard !gone.contains(k) else { return nil }
            latest[k] = board
            guard k == names.indices.first(where: { !gone.contains($0) }) else { return nil }
            return Self.text(names: names, latest, controls: controls?.summary)
        }
        if let text, let line { line.draw { [Span(Terminal.clip(text, to: $0))] } }
    }

    /// "12.3 s · left 3075/147325 buf 250 · right 3070/147325 buf 248".
    /// `controls`: the keys' values ("intensity 80%  pace 5.5/min"), last.
    static func text(names: [String], _ boards: [Board?], controls: String? = nil) -> String {
        let elapsed = boards.compactMap { $0 }.first { $0.state != "ended" }?.elapsed ?? 0
        let head = elapsed < 0 ? "starting in \(fixed(-elapsed, 1)) s" : "\(fixed(elapsed, 1)) s"
        let parts = zip(names, boards).map { name, b -> String in
            guard let b else { return "\(name) -" }
            if b.state != "playing" { return "\(name) \(b.state)" }
            return "\(name) \(b.played)/\(b.total)" + (b.fill.map { " buf \($0)" } ?? "")
        }
        return ([head] + parts + (controls.map { [$0] } ?? [])).joined(separator: " · ")
    }

    /// Board `k` failed for good: the line shows it ended while the others play on.
    func ended(_ k: Int) {
        lock.withLock {
            gone.insert(k)
            if latest[k] == nil { latest[k] = Board(elapsed: 0, played: 0, total: 0, fill: nil, state: "ended") }
            latest[k]?.state = "ended"
        }
    }

    func finish() { line?.finish() }
}

extension Play {
    /// What several boards do not take: --sim-link for all of them, virtual time for ports.
    func validateSeveral() throws {
        guard simLink == nil else {
            throw ValidationError("give each simulated board its own link: --board NAME=sim:LINK")
        }
        let allSimulated = board.layout.allSatisfy { if case .simulated = $0.place { true } else { false } }
        guard !virtualTime || allSimulated else { throw ValidationError("--virtual-time works when every board is simulated") }
        // In virtual time each simulated board runs as fast as its own thread can: a change or stop from
        // outside would land at a different point of the breath on each.
        guard !virtualTime || (control == nil && controlSocket == nil) else {
            throw ValidationError("--virtual-time runs each board at its own speed: steer several boards in real time (drop --virtual-time)")
        }
    }
}
