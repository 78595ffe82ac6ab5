// Every command of the control protocol as its own Codable type, its fields under their wire names, with
// the checks that turn it into what the session understands (`ControlCommand`) and the error line for each
// field that is missing, of the wrong kind or out of range.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorSession

/// A command on the wire (docs/control.md, "Commands"): one type each, named by its `command` field.
public protocol ControlCommandMessage: Codable, Sendable, Equatable, ControlMessageFields {
    /// The `command` field's value.
    static var command: String { get }
    /// The session's command this message asks for, checked against the session: its pattern (a seek's
    /// phases) and its cycles (nil: it loops).
    func checked(pattern: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand
    /// The error for `field` missing or of the wrong kind.
    static func problem(with field: String, pattern: BreathPattern) -> String
}

extension ControlCommandMessage {
    public static var notes: [String: FieldNote] { [:] }

    public static func problem(with field: String, pattern: BreathPattern) -> String {
        switch notes[field] {
        case .range(let r), .wholeRange(let r): "\(command): \"\(field)\" must be a finite number in \(text(r.lowerBound))...\(text(r.upperBound))"
        case .oneOf(let values): "\(command): \"\(field)\" must be \(values.joined(separator: " or "))"
        case nil: "\(command): \"\(field)\" is not valid"
        }
    }

    /// `value` when it is finite and in `field`'s range; otherwise the range error.
    static func number(_ value: Double, _ field: String) throws(ControlError) -> Double {
        guard case .range(let r) = notes[field], value.isFinite, r.contains(value) else {
            throw ControlError(problem(with: field, pattern: .presets[0]))
        }
        return value
    }

    /// This command as one line (`"command"` and its fields, keys sorted), with the client's `id` if given:
    /// what a Swift client sends.
    public func line(id: ControlID? = nil) -> String { ControlWire.line(self, key: "command", name: Self.command, id: id) }
}

/// `intensity`: a multiplier of the session's strength, 0...1; with `board`, that board's own (several
/// boards in step).
public struct IntensityCommand: ControlCommandMessage {
    public static let command = "intensity"
    public var value: Double
    public var board: String?
    public init(value: Double, board: String? = nil) { self.value = value; self.board = board }
    public static var notes: [String: FieldNote] { ["value": .range(0...1)] }
    static let boardProblem = "intensity: \"board\" must be a board's name (a string)"

    public func checked(pattern: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand {
        let value = try Self.number(value, "value")
        guard let board else { return .intensity(value) }
        guard !board.isEmpty else { throw ControlError(Self.boardProblem) }
        return .boardIntensity(board: board, value: value)
    }

    public static func problem(with field: String, pattern: BreathPattern) -> String {
        field == "board" ? boardProblem : "intensity: \"value\" must be a finite number in 0...1"
    }
}

/// `sharpness`: an offset added to the session's sharpness, -1...1.
public struct SharpnessCommand: ControlCommandMessage {
    public static let command = "sharpness"
    public var value: Double
    public init(value: Double) { self.value = value }
    public static var notes: [String: FieldNote] { ["value": .range(-1...1)] }
    public func checked(pattern: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand {
        .sharpness(try Self.number(value, "value"))
    }
}

/// `pace`: breaths per minute, 1...30, from the next phase boundary.
public struct PaceCommand: ControlCommandMessage {
    public static let command = "pace"
    public var bpm: Double
    public init(bpm: Double) { self.bpm = bpm }
    public static var notes: [String: FieldNote] { ["bpm": .range(1...30)] }
    public func checked(pattern: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand {
        .change(.pace(breathsPerMinute: try Self.number(bpm, "bpm")))
    }
}

/// `seek`: to the start of a phase (default the pattern's first) of a whole cycle.
public struct SeekCommand: ControlCommandMessage {
    public static let command = "seek"
    public var cycle: Double
    public var phase: BreathPhase?
    public init(cycle: Double, phase: BreathPhase? = nil) { self.cycle = cycle; self.phase = phase }
    public static var notes: [String: FieldNote] {
        ["cycle": .wholeRange(1...100_000), "phase": .oneOf(BreathPhase.allCases.map(\.rawValue))]
    }

    public func checked(pattern: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand {
        guard cycle.isFinite, (1...100_000).contains(cycle) else { throw ControlError(Self.problem(with: "cycle", pattern: pattern)) }
        guard cycle == cycle.rounded() else {
            throw ControlError("seek: \"cycle\" must be a whole number (a cycle, 1 for the first), got \(cycle)")
        }
        let whole = Int(cycle)
        if let cycles, whole > cycles {
            throw ControlError("seek: \"cycle\" must be in 1...\(cycles) (this session's cycles), got \(whole)")
        }
        let kind = phase ?? pattern.phases.first!.kind
        guard let index = pattern.phases.firstIndex(where: { $0.kind == kind }) else {
            throw ControlError(Self.problem(with: "phase", pattern: pattern))
        }
        return .change(.seek(cycle: whole, phase: index))
    }

    public static func problem(with field: String, pattern: BreathPattern) -> String {
        guard field == "phase" else { return "seek: \"cycle\" must be a finite number in 1...100000" }
        return "seek: \"phase\" must be one of this pattern's phases: \(pattern.phases.map(\.kind.rawValue).joined(separator: ", "))"
    }
}

/// When a `pattern` command's new pattern begins: the next cycle, or now (fading out what plays).
public enum PatternTiming: String, Codable, Sendable, CaseIterable {
    case next, now
}

/// `pattern`: a new pattern as `--pattern` takes it, from the next cycle or now.
public struct PatternCommand: ControlCommandMessage {
    public static let command = "pattern"
    public var pattern: String
    public var at: PatternTiming?
    public init(pattern: String, at: PatternTiming? = nil) { self.pattern = pattern; self.at = at }
    public static var notes: [String: FieldNote] { ["at": .oneOf(PatternTiming.allCases.map(\.rawValue))] }

    public func checked(pattern current: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand {
        do {
            return .change(.pattern(try BreathPattern.parse(pattern), now: at == .now))
        } catch {
            throw ControlError("pattern: \(error.optionLine("\"pattern\""))")
        }
    }

    public static func problem(with field: String, pattern: BreathPattern) -> String {
        guard field == "pattern" else { return "pattern: \"at\" must be next or now" }
        return "pattern: \"pattern\" must be a preset (\(BreathPattern.presets.map(\.name).joined(separator: ", "))) or in-hold-out[-holdout] seconds such as 4-7-8"
    }
}

/// `pause`: fades out; the board stays prepared.
public struct PauseCommand: ControlCommandMessage {
    public static let command = "pause"
    public init() {}
    public func checked(pattern: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand { .change(.pause) }
}

/// `resume`: continues where the pause left the breath, fading in.
public struct ResumeCommand: ControlCommandMessage {
    public static let command = "resume"
    public init() {}
    public func checked(pattern: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand { .change(.resume) }
}

/// `finish`: ends after the breath that is playing.
public struct FinishCommand: ControlCommandMessage {
    public static let command = "finish"
    public init() {}
    public func checked(pattern: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand { .change(.finishAfterThisBreath) }
}

/// `stop`: stops now, motor off.
public struct StopCommand: ControlCommandMessage {
    public static let command = "stop"
    public init() {}
    public func checked(pattern: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand { .stop }
}

/// `state`: asks for the `state` event.
public struct StateCommand: ControlCommandMessage {
    public static let command = "state"
    public init() {}
    public func checked(pattern: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand { .state }
}

/// `patterns`: asks for the `patterns` event.
public struct PatternsCommand: ControlCommandMessage {
    public static let command = "patterns"
    public init() {}
    public func checked(pattern: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand { .patterns }
}

/// `clock`: asks for the `clock` event (the host's wall clock now).
public struct ClockCommand: ControlCommandMessage {
    public static let command = "clock"
    public init() {}
    public func checked(pattern: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand { .clock }
}

/// 1 rather than 1.0 in messages.
func text(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
