// Breath patterns: inhale, hold, exhale, hold-out seconds; presets and the "4-7-8" text form.

/// One breath cycle's phase lengths, in seconds.
public struct BreathPattern: Sendable, Equatable {
    public var name: String
    public var inhale: Double
    public var hold: Double
    public var exhale: Double
    public var holdOut: Double

    public init(name: String, inhale: Double, hold: Double, exhale: Double, holdOut: Double = 0) {
        self.name = name
        self.inhale = inhale
        self.hold = hold
        self.exhale = exhale
        self.holdOut = holdOut
    }

    public var cycleSeconds: Double { inhale + hold + exhale + holdOut }

    /// Named presets.
    public static let presets: [BreathPattern] = [
        BreathPattern(name: "4-7-8", inhale: 4, hold: 7, exhale: 8),
        BreathPattern(name: "box", inhale: 4, hold: 4, exhale: 4, holdOut: 4),
        BreathPattern(name: "coherent", inhale: 5.5, hold: 0, exhale: 5.5),
    ]

    /// Longest phase accepted, in seconds.
    public static let maxPhaseSeconds = 120.0

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
        for part in parts {
            guard let value = Double(part), value.isFinite else {
                throw PatternError(text: text, reason: "'\(part)' is not a number of seconds")
            }
            guard value >= 0 else { throw PatternError(text: text, reason: "'\(part)' is negative") }
            guard value <= maxPhaseSeconds else {
                throw PatternError(text: text, reason: "'\(part)' s is longer than the \(Int(maxPhaseSeconds)) s a phase may last")
            }
            seconds.append(value)
        }
        let pattern = BreathPattern(name: key, inhale: seconds[0], hold: seconds[1], exhale: seconds[2],
                                    holdOut: seconds.count == 4 ? seconds[3] : 0)
        guard pattern.inhale > 0, pattern.exhale > 0 else {
            throw PatternError(text: text, reason: "inhale and exhale must be longer than 0 s")
        }
        return pattern
    }
}

/// A pattern string that could not be understood.
public struct PatternError: Error, Sendable, CustomStringConvertible {
    public var text: String
    public var reason: String
    public var description: String { "bad pattern '\(text)': \(reason)" }
}
