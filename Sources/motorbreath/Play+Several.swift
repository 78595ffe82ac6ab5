// play on several boards in step: each board opened, prepared (at once) and shaped for its own motor and
// profile, all started at one instant (BreathEnsemble), a live line naming each board, and a report per board.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import Breath
import Calibration
import HostPlatform
import MotorSession
import SimBoard

extension Play {
    /// Plays `built` on every board of the layout in step; the end line or --json names each board.
    func playSeveral(_ built: BuiltBreath) throws {
        let layout = board.layout
        // Simulated boards share one host clock: virtual worlds all begin at 0, real-time ones at one epoch.
        let epoch = MonotonicClock.nowNs()
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
                        }))
                    }
                    throw fail("board \(b.name): \(error)")
                }
            case .simulated(let link):
                connections.append(.simulated(SimWorld(impairments: link?.impairments ?? LinkImpairments(),
                                                       pacing: virtualTime ? .virtual : .realTime, seed: seed &+ UInt64(k), epochNs: epoch)))
            }
        }
        let sessions = connections.map { $0.session(options: sessionOptions) }
        let ensemble = BreathEnsemble(zip(layout, sessions).map { ($0.name, $1) })
        ensemble.allOrNothing = allOrNothing
        let prepared: [Prepared]
        do { prepared = try ensemble.prepare() } catch {
            if json { try printJSON(SeveralReport(boards: layout.map { BoardReport(name: $0.name, report: failedReport(error)) })) }
            throw fail(error)
        }
        let view = SeveralView(names: layout.map(\.name), quiet: quiet)
        defer { view.finish() }
        // Keys steer every board (through the ensemble); the events are the first board's.
        var controls: PlayControls?
        defer { controls?.stop() }
        controls = try startControls(session: sessions[0], plan: built.plan, prepared: prepared[0], inbox: ensemble.controls)
        var truths: [TrueTiming?] = Array(repeating: nil, count: layout.count)
        var shaping: [BoardShaping] = []
        for (k, p) in prepared.enumerated() {
            if !quiet { Stderr.write("\(layout[k].name): ") }
            announce(p)
            shaping.append(try self.shaping(for: p, session: sessions[k]))
            let world = connections[k].world
            sessions[k].willPlay = { player, frames in
                if let world {
                    world.recordPlays = false
                    truths[k] = TrueTiming(world: world, player: player, expected: frames)
                }
            }
            sessions[k].onStatus = { view.show(k, $0) }
            sessions[k].shouldStop = { Signals.pending != 0 }
        }
        let loop = self.loop, compensate = !noCompensation, warmup = warmupSeconds
        let shapes = shaping
        var result = ensemble.play { k, session throws(SessionError) in
            do throws(SessionError) {
                return try Play.play(built, on: session, shaped: shapes[k], loop: loop, compensate: compensate, warmup: warmup)
            } catch {
                view.ended(k)
                throw error
            }
        }
        view.finish()
        controls?.stop()
        for k in result.boards.indices {
            result.boards[k].report.profile = shaping[k].profile
            truths[k]?.judge(&result.boards[k].report)
        }
        if json {
            try printJSON(SeveralReport(boards: result.boards))
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

    /// The report of a board that never played: the ensemble's prepare failed (every motor was stopped).
    private func failedReport(_ error: EnsembleError) -> PlayReport {
        var r = PlayReport()
        r.error = error.description
        return r
    }
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

/// --json with several boards: one report per board, by name, in the layout's order.
struct SeveralReport: Encodable {
    var boards: [BoardReport]

    enum CodingKeys: String, CodingKey {
        case boards
        case motorOffAtExit = "motor_off_at_exit"
    }
    struct Named: Encodable {
        var name: String
        var report: PlayReport
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(boards.map { Named(name: $0.name, report: $0.report) }, forKey: .boards)
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
            return Self.text(names: names, latest)
        }
        if let text, let line { line.draw { [Span(Terminal.clip(text, to: $0))] } }
    }

    /// "12.3 s · left 3075/147325 buf 250 · right 3070/147325 buf 248".
    static func text(names: [String], _ boards: [Board?]) -> String {
        let elapsed = boards.compactMap { $0 }.first { $0.state != "ended" }?.elapsed ?? 0
        let head = elapsed < 0 ? "starting in \(fixed(-elapsed, 1)) s" : "\(fixed(elapsed, 1)) s"
        let parts = zip(names, boards).map { name, b -> String in
            guard let b else { return "\(name) -" }
            if b.state != "playing" { return "\(name) \(b.state)" }
            return "\(name) \(b.played)/\(b.total)" + (b.fill.map { " buf \($0)" } ?? "")
        }
        return ([head] + parts).joined(separator: " · ")
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
    /// What several boards do not take (yet): a controlling program, --sim-link for all of them, virtual time
    /// for ports.
    func validateSeveral() throws {
        guard control == nil && controlSocket == nil else {
            throw ValidationError("--control and --control-socket steer one board; with several boards, not yet")
        }
        guard simLink == nil else {
            throw ValidationError("give each simulated board its own link: --board NAME=sim:LINK")
        }
        let allSimulated = board.layout.allSatisfy { if case .simulated = $0.place { true } else { false } }
        guard !virtualTime || allSimulated else { throw ValidationError("--virtual-time works when every board is simulated") }
    }
}
