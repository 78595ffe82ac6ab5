// What the clients steered a breath to, as a value: intensity, sharpness, pace, pattern, pause, each
// board's own intensity; what a command changes in it and what it asks of the session. ControlHub keeps
// one under its lock; the rules here are pure, so a table tests them.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorSession

/// The steering values of a playing breath and the rules commands follow on them (no locks, no I/O).
public struct SteeringState: Equatable, Sendable {
    /// The session's own strength and sharpness (intensity multiplies the one, sharpness offsets the other).
    public let baseStrength: Double
    public let baseSharpness: Double
    /// The pattern as last asked for (a `pattern` command changes it at once, as `pace` changes `bpm`).
    public var pattern: BreathPattern
    public var intensity = 1.0
    public var sharpnessOffset = 0.0
    public var bpm: Double
    public var paused = false
    /// The palette's steady vibration: no pace, no pattern; the arrows change the sharpness.
    public var steady = false
    /// Each board's own intensity (`"board"` on `intensity`), 1 unless a client set it.
    public var boardIntensity: [String: Double] = [:]
    /// Pattern, pace, intensity and sharpness changes the session has not yet applied or refused, with what
    /// played before each: a refused one is taken back, so `state` never names a value that will not play.
    var unanswered: [PendingPattern] = []

    /// A change waiting for its answer, and the values before it.
    struct PendingPattern: Equatable, Sendable {
        var change: BreathChange
        var pattern: BreathPattern
        var bpm: Double
        var intensity = 1.0
        var sharpnessOffset = 0.0

        /// The values before `earlier`, a change of its kind that never played (replaced, or refused).
        mutating func takeBefore(_ earlier: PendingPattern) {
            (pattern, bpm, intensity, sharpnessOffset) = (earlier.pattern, earlier.bpm, earlier.intensity, earlier.sharpnessOffset)
        }
    }

    /// Whether `a` and `b` set the same value (a pattern sets the pace too).
    static func sameValue(_ a: BreathChange, _ b: BreathChange) -> Bool {
        switch (a, b) {
        case (.strength, .strength), (.sharpness, .sharpness): true
        case (.pace, .pace), (.pace, .pattern), (.pattern, .pace), (.pattern, .pattern): true
        default: false
        }
    }

    /// Notes `change`, about to be made, as waiting for its answer with the values before it.
    private mutating func awaitAnswer(_ change: BreathChange) {
        unanswered.append(PendingPattern(change: change, pattern: pattern, bpm: bpm, intensity: intensity, sharpnessOffset: sharpnessOffset))
        // (One whose answer never comes, the session having ended or forgotten it, goes after 1000 more.)
        if unanswered.count > IdLedger.limit { unanswered.removeFirst(unanswered.count - IdLedger.limit) }
    }

    public init(pattern: BreathPattern, strength: Double, sharpness: Double) {
        self.pattern = pattern
        baseStrength = strength
        baseSharpness = sharpness
        bpm = 60 / pattern.cycleSeconds
    }

    /// Base x intensity, at most 1.
    public var strength: Double { min(1, baseStrength * intensity) }
    /// Base + offset, within 0...1.
    public var sharpness: Double { min(1, max(0, baseSharpness + sharpnessOffset)) }
    /// The strength board `name` plays at: base x the session's intensity x its own.
    public func strength(of name: String) -> Double { min(1, baseStrength * intensity * (boardIntensity[name] ?? 1)) }

    /// What a command asks of the session once the steering values took it.
    public enum Outcome: Equatable, Sendable {
        /// A change for the session (every board).
        case change(BreathChange)
        /// Several boards: the session's intensity, each board at its own strength.
        case everyBoard([BoardChange])
        /// One board's own intensity.
        case oneBoard(BoardChange)
        case refused(command: String, reason: String)
        case error(String)
        /// Stop now (also the palette's `finish`).
        case stop
        /// A question for the hub to answer (`state`, `patterns`, `clock`).
        case answer(ControlCommand)
    }

    /// A change for one board of several.
    public struct BoardChange: Equatable, Sendable {
        public var board: String
        public var change: BreathChange
        public init(board: String, change: BreathChange) { self.board = board; self.change = change }
    }

    /// Takes `command`: the values it sets, and what the session must do. `boards`: the boards playing in
    /// step (empty: one); `routed`: whether changes for one board can reach it.
    public mutating func take(_ command: ControlCommand, boards: [String] = [], routed: Bool = false) -> Outcome {
        // An app's command (the parser refuses these already): a value that is not a finite number would
        // make the strength NaN and trap the live line's percent (Int(NaN)); answered as the parser would.
        let value: (name: String, field: String, v: Double, range: String)? = switch command {
        case .intensity(let v), .boardIntensity(_, let v): ("intensity", "value", v, "0...1")
        case .sharpness(let v): ("sharpness", "value", v, "-1...1")
        case .change(.pace(let v)): ("pace", "bpm", v, "1...30")
        case .change(.strength(let v)), .change(.sharpness(let v)): ("intensity", "value", v, "0...1")
        default: nil
        }
        if let value, !value.v.isFinite {
            return .error("\(value.name): \"\(value.field)\" must be a finite number in \(value.range)")
        }
        switch command {
        case .intensity(let v) where !boards.isEmpty && routed:
            intensity = v
            return .everyBoard(boards.map { BoardChange(board: $0, change: .strength(strength(of: $0))) })
        case .intensity(let v):
            awaitAnswer(.strength(min(1, baseStrength * v)))
            intensity = v
            return .change(.strength(strength))
        case .boardIntensity(let name, let v):
            guard boards.contains(name), routed else {
                let why = boards.isEmpty ? "names one of several boards playing in step; this session plays one"
                    : "must be one of the boards: \(boards.joined(separator: ", "))"
                return .error("intensity: \"board\" \(why)")
            }
            boardIntensity[name] = v
            return .oneBoard(BoardChange(board: name, change: .strength(strength(of: name))))
        case .sharpness(let v):
            awaitAnswer(.sharpness(min(1, max(0, baseSharpness + v))))
            sharpnessOffset = v
            return .change(.sharpness(sharpness))
        case .change(.pace) where steady:
            return .refused(command: "pace", reason: "the palette plays a steady vibration: it has no pace")
        case .change(.pattern) where steady:
            return .refused(command: "pattern", reason: "the palette plays a steady vibration: it has no pattern")
        case .change(.finishAfterThisBreath) where steady:
            return .stop  // the palette's one long phase never ends by itself: finish ends it now
        case .state, .patterns, .clock:
            return .answer(command)
        case .stop:
            return .stop
        case .change(let change):
            switch change {
            case .pace(let b):
                awaitAnswer(change)
                bpm = b
            case .pause: paused = true
            case .resume, .seek: paused = false
            case .pattern(let p, _):
                awaitAnswer(change)
                pattern = p
                bpm = 60 / p.cycleSeconds
            default: break
            }
            return .change(change)
        }
    }

    /// The session answered `change` (applied it, or `refused`): a refused pattern, with nothing asked since,
    /// is taken back (the pattern playing is still the one before it). True when the pattern changed back.
    @discardableResult
    public mutating func answered(_ change: BreathChange, refused: Bool) -> Bool {
        guard let i = unanswered.firstIndex(where: { $0.change == change }) else { return false }
        let before = unanswered.remove(at: i)
        guard refused else { return false }
        // It never played: what played before the next of its kind still waiting is what played before it.
        if let next = unanswered[i...].firstIndex(where: { Self.sameValue($0.change, change) }) {
            unanswered[next].takeBefore(before)
        }
        // Taken back only with nothing of its kind still waiting (a pattern sets the pace too): what plays is
        // then still what played before it.
        func waiting(_ kind: (BreathChange) -> Bool) -> Bool { unanswered.contains { kind($0.change) } }
        let paceOrPattern: (BreathChange) -> Bool = { if case .pace = $0 { true } else if case .pattern = $0 { true } else { false } }
        switch change {
        case .strength(let s) where strength == s && !waiting({ if case .strength = $0 { true } else { false } }):
            intensity = before.intensity
        case .sharpness(let s) where sharpness == s && !waiting({ if case .sharpness = $0 { true } else { false } }):
            sharpnessOffset = before.sharpnessOffset
        case .pace(let b) where bpm == b && !waiting(paceOrPattern):
            bpm = before.bpm
        case .pattern(let p, _) where pattern == p && !waiting(paceOrPattern):
            pattern = before.pattern
            bpm = before.bpm
            return true
        default: break
        }
        return false
    }

    /// `replaced` waited in the session's inbox and `change` (of its kind) replaced it: it will never be
    /// answered, and what played before it is what played before `change`.
    public mutating func forget(_ replaced: BreathChange?, by change: BreathChange) {
        guard let replaced, let new = unanswered.lastIndex(where: { $0.change == change }),
              let old = unanswered[..<new].lastIndex(where: { $0.change == replaced }) else { return }
        unanswered[new].takeBefore(unanswered[old])
        unanswered.remove(at: old)
    }

    /// A new breath in place of the one that played: `options` with the strength and sharpness the clients
    /// left, not paused; and the pace, when a client changed it, as a change to send once prepared.
    public mutating func restart(_ options: BreathOptions) -> (pattern: BreathPattern, options: BreathOptions, pace: BreathChange?) {
        var o = options
        o.strength = strength
        o.sharpness = sharpness
        paused = false
        let own = 60 / pattern.cycleSeconds
        return (pattern, o, abs(bpm - own) > 1e-9 && !steady ? .pace(breathsPerMinute: bpm) : nil)
    }

    /// What the live line shows: "intensity 80%  pace 5.5/min" (and "paused").
    public var summary: String {
        var s = "intensity \(Int((intensity * 100).rounded()))%  "
        s += steady ? "sharpness \(String(format: "%.1f", sharpness))" : "pace \(String(format: "%.1f", bpm))/min"
        if paused { s += "  paused" }
        return s
    }

    /// The command a key of the terminal controls asks for, from these values.
    public func command(for key: ControlHub.Key) -> ControlCommand {
        switch key {
        case .up: .intensity(min(1, (intensity * 10).rounded() / 10 + 0.1))
        case .down: .intensity(max(0, (intensity * 10).rounded() / 10 - 0.1))
        case .right where steady: .sharpness(min(1 - baseSharpness, sharpnessOffset + 0.1))
        case .left where steady: .sharpness(max(-baseSharpness, sharpnessOffset - 0.1))
        case .right: .change(.pace(breathsPerMinute: min(30, bpm + 0.5)))
        case .left: .change(.pace(breathsPerMinute: max(1, bpm - 0.5)))
        case .space: .change(paused ? .resume : .pause)
        case .finish: .change(.finishAfterThisBreath)
        case .quit: .stop
        }
    }

    /// The `state` event of these values, with where the session is (`status`) and, with several boards,
    /// each board's values and status.
    public func stateEvent(status: SessionStatus?, boards: [String], boardStatus: [String: SessionStatus], id: ControlID?) -> StateEvent {
        StateEvent(pattern: pattern.name, intensity: intensity, strength: strength, sharpness: sharpnessOffset,
                   sharpnessEffective: sharpness, bpm: steady ? nil : bpm, paused: paused, status: status,
                   boards: boards.isEmpty ? nil : boards.map {
                       StateEvent.Board(name: $0, intensity: boardIntensity[$0] ?? 1, strength: strength(of: $0), status: boardStatus[$0])
                   }, id: id)
    }
}
