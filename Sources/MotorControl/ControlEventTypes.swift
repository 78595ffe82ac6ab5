// The session's events of the control protocol as Codable types, their fields under their wire names:
// `prepared`, `state`, `phase`, `applied`, `refused`. (The answers and the last events: ControlAnswerTypes.)
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorSession

/// An event on the wire (docs/control.md, "Events"): one type each, named by its `event` field.
public protocol ControlEventMessage: Codable, Sendable, Equatable, ControlMessageFields {
    /// The `event` field's value.
    static var event: String { get }
}

extension ControlEventMessage {
    public static var notes: [String: FieldNote] { [:] }
    /// This event as one line (`"event"` and its fields, keys sorted), newline-terminated.
    public var line: String { ControlWire.line(self, key: "event", name: Self.event) }
}

/// The motor kinds `prepared` names.
let motorNames = ["ERM", "LRA"]

/// `prepared`: the board is ready; the protocol's version and the commands this build takes.
public struct PreparedEvent: ControlEventMessage {
    public static let event = "prepared"
    public var board: String
    public var motor: String
    public var frameRate: Int
    public var pattern: String
    public var `protocol`: Int
    public var commands: [String]
    /// Several boards in step: each one, in order (the fields above are the first board's).
    public var boards: [Board]?

    public init(board: String, motor: String, frameRate: Int, pattern: String, protocol: Int = ControlEvents.protocolVersion,
                commands: [String] = ControlCommand.names, boards: [Board]? = nil) {
        self.board = board; self.motor = motor; self.frameRate = frameRate; self.pattern = pattern
        self.protocol = `protocol`; self.commands = commands; self.boards = boards
    }

    enum CodingKeys: String, CodingKey { case board, motor, frameRate = "frame_rate", pattern, `protocol`, commands, boards }
    public static var notes: [String: FieldNote] { ["motor": .oneOf(motorNames), "boards[].motor": .oneOf(motorNames)] }
}

extension PreparedEvent {
    /// One board of several in `prepared`: its name, what it is, and its place along the line.
    public struct Board: Codable, Sendable, Equatable {
        public var name: String
        public var board: String
        public var motor: String
        /// Its place along the line, 0...1.
        public var at: Double?
        /// Its `--actuator` strength.
        public var strength: Double?
        public var offsetMs: Int?

        public init(name: String, board: String, motor: String, at: Double? = nil, strength: Double? = nil, offsetMs: Int? = nil) {
            self.name = name; self.board = board; self.motor = motor; self.at = at; self.strength = strength; self.offsetMs = offsetMs
        }

        enum CodingKeys: String, CodingKey { case name, board, motor, at, strength, offsetMs = "offset_ms" }
    }
}

/// Where a playing session is, as the player last showed it (about 10 times a second): what a `state`
/// event reports beside the steering values (``ControlHub/noteSessionState(_:)``).
public struct SessionStatus: Sendable, Equatable {
    public var board: String
    public var elapsedS: Double
    public var framesPlayed: Int
    public var framesTotal: Int
    /// `playing`, or what the session is doing instead (e.g. reconnecting).
    public var link: String
    public var retransmits: Int
    public var rttUs: Double?
    public var cycle: Int?
    /// The session's cycles (nil while it loops).
    public var cycles: Int?
    public var phase: BreathPhase?
    public var phaseRemainingS: Double?

    public init(board: String, elapsedS: Double, framesPlayed: Int, framesTotal: Int, link: String, retransmits: Int,
                rttUs: Double? = nil, cycle: Int? = nil, cycles: Int? = nil, phase: BreathPhase? = nil, phaseRemainingS: Double? = nil) {
        self.board = board; self.elapsedS = elapsedS; self.framesPlayed = framesPlayed; self.framesTotal = framesTotal
        self.link = link; self.retransmits = retransmits; self.rttUs = rttUs; self.cycle = cycle; self.cycles = cycles
        self.phase = phase; self.phaseRemainingS = phaseRemainingS
    }
}

/// `state`: every steering value, and where the breath and the link are (once the session showed it).
public struct StateEvent: ControlEventMessage {
    public static let event = "state"
    public var pattern: String
    public var intensity: Double
    public var strength: Double
    public var sharpness: Double
    public var sharpnessEffective: Double
    /// Not in the palette (it has no pace).
    public var bpm: Double?
    public var paused: Bool
    public var board: String?
    public var link: String?
    public var rttUs: Double?
    public var retransmits: Int?
    public var elapsedS: Double?
    public var framesPlayed: Int?
    public var framesTotal: Int?
    public var cycle: Int?
    public var cycles: Int?
    public var phase: BreathPhase?
    public var phaseRemainingS: Double?
    /// Several boards in step: each board's own values.
    public var boards: [Board]?
    public var id: ControlID?

    public init(pattern: String, intensity: Double, strength: Double, sharpness: Double, sharpnessEffective: Double,
                bpm: Double?, paused: Bool, status: SessionStatus? = nil, boards: [Board]? = nil, id: ControlID? = nil) {
        self.pattern = pattern; self.intensity = intensity; self.strength = strength; self.sharpness = sharpness
        self.sharpnessEffective = sharpnessEffective; self.bpm = bpm; self.paused = paused; self.boards = boards; self.id = id
        if let status {
            board = status.board; link = status.link; rttUs = status.rttUs; retransmits = status.retransmits
            elapsedS = status.elapsedS; framesPlayed = status.framesPlayed; framesTotal = status.framesTotal
            cycle = status.cycle; cycles = status.cycles; phase = status.phase; phaseRemainingS = status.phaseRemainingS
        }
    }

    enum CodingKeys: String, CodingKey {
        case pattern, intensity, strength, sharpness, sharpnessEffective = "sharpness_effective", bpm, paused, board, link
        case rttUs = "rtt_us", retransmits, elapsedS = "elapsed_s", framesPlayed = "frames_played", framesTotal = "frames_total"
        case cycle, cycles, phase, phaseRemainingS = "phase_remaining_s", boards, id
    }
}

extension StateEvent {
    /// One board of several in `state`: its own intensity and strength and, once playing, its link.
    public struct Board: Codable, Sendable, Equatable {
        public var name: String
        /// Its own intensity (1 unless a client set it).
        public var intensity: Double
        /// Base x the session's intensity x its own.
        public var strength: Double
        public var board: String?
        public var framesPlayed: Int?
        public var framesTotal: Int?
        public var link: String?
        public var retransmits: Int?
        public var rttUs: Double?

        public init(name: String, intensity: Double, strength: Double, status: SessionStatus? = nil) {
            self.name = name; self.intensity = intensity; self.strength = strength
            if let status {
                board = status.board; framesPlayed = status.framesPlayed; framesTotal = status.framesTotal
                link = status.link; retransmits = status.retransmits; rttUs = status.rttUs
            }
        }

        enum CodingKeys: String, CodingKey {
            case name, intensity, strength, board, framesPlayed = "frames_played", framesTotal = "frames_total", link, retransmits
            case rttUs = "rtt_us"
        }
    }
}

/// `phase`: a phase began on the motor, at `board_tick` on the board's clock.
public struct PhaseEvent: ControlEventMessage {
    public static let event = "phase"
    public var phase: BreathPhase
    public var cycle: Int
    /// The name of the pattern the phase belongs to.
    public var pattern: String
    public var frame: Int
    public var boardTick: UInt64
    /// The host's wall clock at `board_tick`, ISO 8601 with milliseconds.
    public var time: String
    public var unixMs: Double

    public init(phase: BreathPhase, cycle: Int, pattern: String, frame: Int, boardTick: UInt64, time: String, unixMs: Double) {
        self.phase = phase; self.cycle = cycle; self.pattern = pattern; self.frame = frame; self.boardTick = boardTick
        self.time = time; self.unixMs = unixMs
    }

    enum CodingKeys: String, CodingKey { case phase, cycle, pattern, frame, boardTick = "board_tick", time, unixMs = "unix_ms" }
}

/// A change as `applied` and `refused` name it: the command and its values.
public protocol ChangeDescription {
    var command: String { get set }
    /// `intensity`: the strength it asks for (base x intensity).
    var strength: Double? { get set }
    var sharpness: Double? { get set }
    var bpm: Double? { get set }
    var cycle: Int? { get set }
    var phaseIndex: Int? { get set }
    var pattern: String? { get set }
    var at: PatternTiming? { get set }
}

extension ChangeDescription {
    /// Names `change` (its command and values).
    mutating func describe(_ change: BreathChange) {
        switch change {
        case .strength(let s): command = "intensity"; strength = s
        case .sharpness(let s): command = "sharpness"; sharpness = s
        case .pace(let bpm): command = "pace"; self.bpm = bpm
        case .pause: command = "pause"
        case .resume: command = "resume"
        case .seek(let c, let p): command = "seek"; cycle = c; phaseIndex = p
        case .finishAfterThisBreath: command = "finish"
        case .pattern(let p, let now): command = "pattern"; pattern = p.name; at = now ? .now : .next
        }
    }
}

/// `applied`: a change reached the motor: its first changed frame, output at `board_tick`.
public struct AppliedEvent: ControlEventMessage, ChangeDescription {
    public static let event = "applied"
    public var command: String
    public var strength: Double?
    public var sharpness: Double?
    public var bpm: Double?
    public var cycle: Int?
    public var phaseIndex: Int?
    public var pattern: String?
    public var at: PatternTiming?
    public var frame: Int
    public var boardTick: UInt64
    public var latencyMs: Double
    /// `intensity` and `sharpness`: as the client sent it, as played, and the session's own.
    public var value: Double?
    public var effective: Double?
    public var base: Double?
    /// Several boards: the board a change for one board was made on, and the session's intensity.
    public var board: String?
    public var intensity: Double?
    public var id: ControlID?

    public init(command: String, frame: Int, boardTick: UInt64, latencyMs: Double) {
        self.command = command; self.frame = frame; self.boardTick = boardTick; self.latencyMs = latencyMs
    }

    enum CodingKeys: String, CodingKey {
        case command, strength, sharpness, bpm, cycle, phaseIndex = "phase_index", pattern, at, frame, boardTick = "board_tick"
        case latencyMs = "latency_ms", value, effective, base, board, intensity, id
    }
}

/// `refused`: the change cannot be made, and why.
public struct RefusedEvent: ControlEventMessage, ChangeDescription {
    public static let event = "refused"
    public var command: String
    public var strength: Double?
    public var sharpness: Double?
    public var bpm: Double?
    public var cycle: Int?
    public var phaseIndex: Int?
    public var pattern: String?
    public var at: PatternTiming?
    public var reason: String
    /// Several boards: the board a change for one board was refused on.
    public var board: String?
    public var id: ControlID?

    public init(command: String, reason: String, id: ControlID? = nil) { self.command = command; self.reason = reason; self.id = id }

    enum CodingKeys: String, CodingKey {
        case command, strength, sharpness, bpm, cycle, phaseIndex = "phase_index", pattern, at, reason, board, id
    }
}
