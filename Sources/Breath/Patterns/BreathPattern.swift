// Breath patterns: phases with lengths and swell levels; presets (4-7-8, box, coherent, sigh) and "4-7-8" text.
// SPDX-License-Identifier: Apache-2.0

/// The four kinds of breath phase.
public enum BreathPhase: String, Sendable, CaseIterable, Codable {
    case inhale, hold, exhale, holdOut = "hold-out"
}

/// One phase: its kind, length, and the swell level (0...1 of the peak) at its start and end.
/// Holds are silent whatever their levels say.
public struct PhaseSpec: Sendable, Equatable {
    public var kind: BreathPhase
    public var seconds: Double
    public var from: Double
    public var to: Double

    public init(_ kind: BreathPhase, _ seconds: Double, from: Double = 0, to: Double = 0) {
        self.kind = kind
        self.seconds = seconds
        self.from = from
        self.to = to
    }
}

/// One breath cycle.
public struct BreathPattern: Sendable, Equatable {
    public var name: String
    public var phases: [PhaseSpec]

    public init(name: String, phases: [PhaseSpec]) {
        self.name = name
        self.phases = phases.filter { $0.seconds > 0 }
    }

    /// Inhale swells 0 -> 1, hold is silent, exhale fades 1 -> 0, hold-out is silent.
    public init(name: String, inhale: Double, hold: Double, exhale: Double, holdOut: Double = 0) {
        self.init(name: name, phases: [PhaseSpec(.inhale, inhale, from: 0, to: 1), PhaseSpec(.hold, hold),
                                       PhaseSpec(.exhale, exhale, from: 1, to: 0), PhaseSpec(.holdOut, holdOut)])
    }

    public var cycleSeconds: Double { phases.reduce(0) { $0 + $1.seconds } }

    /// Named presets.
    public static let presets: [BreathPattern] = [
        BreathPattern(name: "4-7-8", inhale: 4, hold: 7, exhale: 8),
        BreathPattern(name: "box", inhale: 4, hold: 4, exhale: 4, holdOut: 4),
        BreathPattern(name: "coherent", inhale: 5.5, hold: 0, exhale: 5.5),
        // Physiological sigh: a full inhale, a short second inhale on top, a long exhale, a pause.
        BreathPattern(name: "sigh", phases: [PhaseSpec(.inhale, 2.5, from: 0, to: 0.75), PhaseSpec(.inhale, 1, from: 0.75, to: 1),
                                             PhaseSpec(.exhale, 6, from: 1, to: 0), PhaseSpec(.holdOut, 1.5)]),
    ]

    /// Longest phase accepted, in seconds.
    public static let maxPhaseSeconds = 120.0
    /// Shortest inhale or exhale: anything shorter is a twitch, not a swell (an ERM needs 0.1 s to spin up).
    public static let minBreathSeconds = 0.5
    /// Shortest hold; 0 means no hold.
    public static let minHoldSeconds = 0.1

    /// Parses a preset name or "in-hold-out[-holdout]" seconds, e.g. "4-7-8", "4-4-4-4", "5.5-0-5.5".
    public static func parse(_ text: String) throws(PatternError) -> BreathPattern {
        let key = text.lowercased()
        if let preset = presets.first(where: { $0.name == key }) { return preset }
        if key.hasPrefix("-") || key.contains("--") {
            throw PatternError(text: text, reason: "phase lengths cannot be negative")
        }
        let parts = key.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 4 else {
            throw PatternError(text: text, reason: "expected a preset (\(presets.map(\.name).joined(separator: ", "))) or in-hold-out[-holdout] seconds such as 4-7-8")
        }
        var seconds: [Double] = []
        for (k, part) in parts.enumerated() {
            guard let value = Double(part), value.isFinite, !part.hasPrefix("+") else {
                throw PatternError(text: text, reason: "'\(part)' is not a number of seconds")
            }
            guard value <= maxPhaseSeconds else {
                throw PatternError(text: text, reason: "'\(part)' s is longer than the \(Int(maxPhaseSeconds)) s a phase may last")
            }
            let name = ["inhale", "hold", "exhale", "hold-out"][k]
            if k % 2 == 0 && value < minBreathSeconds {
                throw PatternError(text: text, reason: "'\(part)' s is too short for an \(name): inhale and exhale last \(minBreathSeconds)...\(Int(maxPhaseSeconds)) s")
            }
            if k % 2 == 1 && value != 0 && value < minHoldSeconds {
                throw PatternError(text: text, reason: "'\(part)' s is too short for a \(name): 0 for none, or \(minHoldSeconds)...\(Int(maxPhaseSeconds)) s")
            }
            seconds.append(value)
        }
        return BreathPattern(name: key, inhale: seconds[0], hold: seconds[1], exhale: seconds[2],
                             holdOut: seconds.count == 4 ? seconds[3] : 0)
    }
}

/// A pattern string that could not be understood.
public struct PatternError: Error, Sendable, CustomStringConvertible {
    public var text: String
    public var reason: String
    public var description: String { "bad pattern '\(text)': \(reason)" }

    /// The line the command line and the control protocol both give for a bad value of `option`:
    /// "the value '0.1-0-4' is invalid for pattern: '0.1' s is too short for an inhale: ...".
    public func optionLine(_ option: String) -> String { "the value '\(text)' is invalid for \(option): \(reason)" }
}
