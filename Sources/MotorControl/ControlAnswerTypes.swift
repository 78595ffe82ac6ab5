// The control protocol's answers and last events as Codable types: `error`, `patterns`, `clock`, `file`,
// `dropped`, `finished`.
// SPDX-License-Identifier: Apache-2.0

import Breath

/// `error`: a command that cannot be read (the message says what was wrong), or the session failed (with
/// its report).
public struct ErrorEvent: ControlEventMessage {
    public static let event = "error"
    public var message: String
    public var report: ControlJSON?
    public var id: ControlID?
    public init(message: String, report: ControlJSON? = nil, id: ControlID? = nil) { self.message = message; self.report = report; self.id = id }
}

/// `patterns`: every preset, in order, its phases in seconds and its cycle's length.
public struct PatternsEvent: ControlEventMessage {
    public static let event = "patterns"
    public var patterns: [Pattern]
    public var id: ControlID?
    public init(patterns: [Pattern], id: ControlID? = nil) { self.patterns = patterns; self.id = id }

    /// The presets this build has.
    public static func presets(id: ControlID? = nil) -> PatternsEvent {
        PatternsEvent(patterns: BreathPattern.presets.map {
            Pattern(name: $0.name, phases: $0.phases.map { Phase(phase: $0.kind, seconds: $0.seconds) }, cycleSeconds: $0.cycleSeconds)
        }, id: id)
    }
}

extension PatternsEvent {
    /// One preset in `patterns`.
    public struct Pattern: Codable, Sendable, Equatable {
        public var name: String
        public var phases: [Phase]
        public var cycleSeconds: Double
        public init(name: String, phases: [Phase], cycleSeconds: Double) { self.name = name; self.phases = phases; self.cycleSeconds = cycleSeconds }
        enum CodingKeys: String, CodingKey { case name, phases, cycleSeconds = "cycle_seconds" }
    }
}

extension PatternsEvent {
    /// One phase of a preset: its kind and length.
    public struct Phase: Codable, Sendable, Equatable {
        public var phase: BreathPhase
        public var seconds: Double
        public init(phase: BreathPhase, seconds: Double) { self.phase = phase; self.seconds = seconds }
    }
}

/// `clock`: the host's wall clock when it answered, Unix milliseconds.
public struct ClockEvent: ControlEventMessage {
    public static let event = "clock"
    public var unixMs: Double
    public var id: ControlID?
    public init(unixMs: Double, id: ControlID? = nil) { self.unixMs = unixMs; self.id = id }
    enum CodingKeys: String, CodingKey { case unixMs = "unix_ms", id }
}

/// Where an AHAP file the page sent is (`serve` only).
public enum FileState: String, Codable, Sendable, CaseIterable {
    case playing, played, stopped
}

/// `file` (`serve` only): an AHAP file began to play, the breath stopped for it, or it ended (with its report).
public struct FileEvent: ControlEventMessage {
    public static let event = "file"
    public var name: String
    public var state: FileState
    public var durationS: Double
    public var report: ControlJSON?
    public init(name: String, state: FileState, durationS: Double, report: ControlJSON? = nil) {
        self.name = name; self.state = state; self.durationS = durationS; self.report = report
    }
    enum CodingKeys: String, CodingKey { case name, state, durationS = "duration_s", report }
}

/// `dropped`: this client read too slowly and missed `count` events (the oldest).
public struct DroppedEvent: ControlEventMessage {
    public static let event = "dropped"
    public var count: Int
    public init(count: Int) { self.count = count }
}

/// `finished`: the session ended, the motor is off; its report (as `--json` prints it).
public struct FinishedEvent: ControlEventMessage {
    public static let event = "finished"
    public var report: ControlJSON
    public init(report: ControlJSON) { self.report = report }
}
