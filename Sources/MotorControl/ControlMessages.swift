// The control protocol of `play --control -` and `--control-socket`: one JSON object per line each way.
// Commands in ({"command":"intensity","value":0.5}), events out ({"event":"phase",...}); every message is
// one type (ControlCommandTypes, ControlEventTypes, ControlAnswerTypes), listed here, and docs/control.md
// describes each.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorSession

/// Every message type of the protocol, in the order docs/control.md lists them.
public enum ControlMessages {
    /// Every command this build takes.
    public static let commands: [any ControlCommandMessage.Type] = [
        IntensityCommand.self, SharpnessCommand.self, PaceCommand.self, PauseCommand.self, ResumeCommand.self, SeekCommand.self,
        FinishCommand.self, StopCommand.self, StateCommand.self, PatternCommand.self, PatternsCommand.self, ClockCommand.self,
    ]

    /// Every event this build sends.
    public static let events: [any ControlEventMessage.Type] = [
        PreparedEvent.self, StateEvent.self, PhaseEvent.self, AppliedEvent.self, RefusedEvent.self, ErrorEvent.self,
        PatternsEvent.self, ClockEvent.self, FileEvent.self, DroppedEvent.self, FinishedEvent.self,
    ]

    /// An event line as its type (for a Swift client); an error for a line that is no event this build knows.
    public static func event(from line: String) throws -> any ControlEventMessage {
        guard let envelope = ControlWire.envelope(line, key: "event"), let name = envelope.name,
              let type = events.first(where: { $0.event == name }) else {
            throw ControlError("not an event: \(line.prefix(80))")
        }
        return try type.decoded(from: envelope.data)
    }
}

extension ControlEventMessage {
    static func decoded(from data: Data) throws -> any ControlEventMessage { try JSONDecoder().decode(Self.self, from: data) }
}

/// A command from a controlling program, checked and turned into what the session understands.
public enum ControlCommand: Equatable, Sendable {
    case change(BreathChange)
    /// Intensity: a multiplier of the session's strength, 0...1 (like Core Haptics' HapticIntensityControl).
    case intensity(Double)
    /// One board's own intensity when several play in step (`"board"`): a multiplier of its strength on top of
    /// the session's intensity, 0...1.
    case boardIntensity(board: String, value: Double)
    /// Sharpness: an offset added to the session's sharpness, -1...1.
    case sharpness(Double)
    case stop
    /// Answer with the whole current state (a `state` event to the client that asked).
    case state
    /// Answer with the preset patterns (a `patterns` event to the client that asked).
    case patterns
    /// Answer with the host's wall clock now (a `clock` event to the client that asked): a page maps the
    /// events' `unix_ms` to its own clock with it.
    case clock

    /// Every command this build takes.
    public static let names = ControlMessages.commands.map { $0.command }

    /// The client's `id` of a command line (a string or a number), to echo in every event it causes.
    public static func id(in line: String) -> ControlID? { ControlWire.envelope(line, key: "command")?.id }

    /// Parses one line; the error is the one line to send back. `cycles`: the session's cycles (nil: it
    /// loops); a seek outside them is an error naming the range.
    public static func parse(_ line: String, pattern: BreathPattern, cycles: Int? = nil) throws(ControlError) -> ControlCommand {
        guard let envelope = ControlWire.envelope(line, key: "command"), let name = envelope.name else {
            throw ControlError("not a command: expected a JSON object with a \"command\" field, got \(line.prefix(80))")
        }
        guard let type = ControlMessages.commands.first(where: { $0.command == name }) else {
            throw ControlError("unknown command \"\(name)\" (\(names.joined(separator: ", ")))")
        }
        return try type.read(envelope.data, line: line, pattern: pattern, cycles: cycles)
    }
}

extension ControlCommandMessage {
    /// The command in `data` (the line's bytes), checked: a field missing or of the wrong kind is that
    /// field's error.
    static func read(_ data: Data, line: String, pattern: BreathPattern, cycles: Int?) throws(ControlError) -> ControlCommand {
        let message: Self
        do {
            message = try JSONDecoder().decode(Self.self, from: data)
        } catch {
            // A number the reader does not take (1e999, 1e-400): the line again with it marked.
            let marked = Data(markingNonFinite(line).utf8)
            guard marked != data else { throw ControlError(problem(with: ControlWire.field(of: error) ?? "", pattern: pattern)) }
            do {
                message = try JSONDecoder().decode(Self.self, from: marked)
            } catch let again {
                throw ControlError(problem(with: ControlWire.field(of: again) ?? ControlWire.field(of: error) ?? "", pattern: pattern))
            }
        }
        return try message.checked(pattern: pattern, cycles: cycles)
    }
}

/// What was wrong, as the one line sent back.
public struct ControlError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ text: String) { description = text }
}

/// The events the session and the command line send, made from what they know.
public enum ControlEvents {
    /// Every event this build sends (docs/control.md's table lists each).
    public static let names = ControlMessages.events.map { $0.event }

    /// The control protocol's version: a client may rely on every command, event and field of its version;
    /// later builds add commands, events and fields (clients ignore what they do not know) and change the
    /// version only when something a client relies on changes.
    public static let protocolVersion = 1

    /// The `patterns` event: every preset, its phases in seconds and its cycle's length.
    public static func patterns(id: ControlID? = nil) -> String { PatternsEvent.presets(id: id).line }

    /// Wall-clock time of an instant `agoNs` before now (negative: ahead): ISO 8601 with milliseconds,
    /// and Unix milliseconds.
    public static func wallClock(agoNs: Double) -> (iso: String, unixMs: Double) {
        var real = timespec()
        clock_gettime(CLOCK_REALTIME, &real)
        let unixMs = (Double(real.tv_sec) * 1e9 + Double(real.tv_nsec) - agoNs) / 1e6
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return (f.string(from: Date(timeIntervalSince1970: unixMs / 1000)), unixMs)
    }

    /// `nowNs` is the session clock's now (the events' host times are on that clock).
    public static func encode(_ event: SessionEvent, nowNs: UInt64) -> String { message(for: event, nowNs: nowNs).line }

    /// A session's event as its message: `phase`, `applied` or `refused`.
    public static func message(for event: SessionEvent, nowNs: UInt64) -> SessionEventMessage {
        switch event {
        case .phase(let kind, let cycle, let pattern, let frame, let tick, let hostNs):
            let wall = wallClock(agoNs: Double(nowNs) - Double(hostNs))
            return .phase(PhaseEvent(phase: kind, cycle: cycle, pattern: pattern, frame: frame, boardTick: tick, time: wall.iso, unixMs: wall.unixMs))
        case .applied(let change, let frame, let tick, let latency, _):
            var e = AppliedEvent(command: "", frame: frame, boardTick: tick, latencyMs: (latency * 10).rounded() / 10)
            e.describe(change)
            return .applied(e)
        case .refused(let change, let reason):
            var e = RefusedEvent(command: "", reason: reason)
            e.describe(change)
            return .refused(e)
        }
    }

    /// `serve` only: an AHAP file the page sent began to play (`playing`, the breath stopped for it) or ended
    /// (`played`, or `stopped` before its end; with its report), before the breath plays again.
    public static func file(name: String, state: FileState, durationS: Double, report: PlayReport? = nil) -> String {
        FileEvent(name: name, state: state, durationS: (durationS * 1000).rounded() / 1000, report: report.map(Self.report)).line
    }

    /// The last event of a session that ended: its report (the same as `--json`).
    public static func finished(_ report: PlayReport) -> String { FinishedEvent(report: Self.report(report)).line }

    /// A report (or any `Encodable`) as the JSON value an event carries; an empty object if it cannot be
    /// written (a non-finite number).
    public static func report(_ value: some Encodable) -> ControlJSON { (try? ControlJSON(encoding: value)) ?? .object([:]) }

    /// The first event: the board is ready; the protocol version and the commands this build takes.
    public static func prepared(_ prepared: Prepared, pattern: String) -> PreparedEvent {
        PreparedEvent(board: prepared.info.displayName, motor: motorName(prepared), frameRate: Int(prepared.config.frameRateHz), pattern: pattern)
    }

    /// `prepared` with several boards in step: the first board's fields (its events stand for all) and
    /// `boards`, one per board in order: its name, board and motor, and its place along the line (`at`,
    /// `strength`, `offset_ms`) when it has one.
    public static func prepared(_ boards: [(name: String, prepared: Prepared, place: (at: Double, strength: Double, offsetMs: Int)?)],
                                pattern: String) -> PreparedEvent? {
        guard let first = boards.first else { return nil }
        var e = prepared(first.prepared, pattern: pattern)
        e.boards = boards.map {
            PreparedEvent.Board(name: $0.name, board: $0.prepared.info.displayName, motor: motorName($0.prepared),
                          at: $0.place?.at, strength: $0.place?.strength, offsetMs: $0.place?.offsetMs)
        }
        return e
    }

    static func motorName(_ prepared: Prepared) -> String { prepared.info.motorKind == .lra ? "LRA" : "ERM" }
}

/// One of the events a session itself causes, as its message.
public enum SessionEventMessage: Sendable, Equatable {
    case phase(PhaseEvent)
    case applied(AppliedEvent)
    case refused(RefusedEvent)

    /// The event as one line.
    public var line: String {
        switch self {
        case .phase(let e): e.line
        case .applied(let e): e.line
        case .refused(let e): e.line
        }
    }
}
