// How a breath session is built: length, rate ramp, cues, strength preference, easing.
// SPDX-License-Identifier: Apache-2.0

/// The user's intensity preference: named levels or a number 0...1.
public enum Strength {
    public static let named: [(String, Double)] = [("off", 0), ("subtle", 0.3), ("moderate", 0.6), ("strong", 1.0)]

    /// Parses "off", "subtle", "moderate", "strong" or a number 0...1.
    public static func parse(_ text: String) throws(PatternError) -> Double {
        if let hit = named.first(where: { $0.0 == text.lowercased() }) { return hit.1 }
        guard let v = Double(text), v.isFinite, (0...1).contains(v) else {
            throw PatternError(text: text, reason: "strength is off, subtle, moderate, strong or a number 0...1")
        }
        return v
    }
}

/// Session length: a number of cycles, or minutes (whole cycles until the time is used up).
public enum SessionLength: Sendable, Equatable {
    case cycles(Int)
    case minutes(Double)
}

/// How a breath session is built from a pattern: its length, a rate ramp, cue taps, the strength
/// preference, the peak intensity, sharpness, easing and what plays during holds.
///
///     var options = BreathOptions()
///     options.length = .minutes(5)
///     options.rampBPM = (from: 7, to: 5.5)
///     options.cues = true
///     let plan = BreathPlan(pattern: try BreathPattern.parse("4-7-8"), options: options)
public struct BreathOptions: Sendable, Equatable {
    /// How long the session lasts: cycles, or minutes of whole cycles.
    public var length: SessionLength = .cycles(1)
    /// Breaths per minute at the start and the end of the session (the pattern is scaled in time).
    public var rampBPM: (from: Double, to: Double)?
    /// Soft tap at each inhale start, lighter tap at each exhale start, fading three-tap at the end.
    public var cues = false
    /// User preference, multiplies every intensity.
    public var strength = 1.0
    /// Event intensity at the top of the swell (Core Haptics' 4-7-8 example uses 0.8).
    public var peak = 0.8
    /// Event sharpness 0...1 (0 round and soft, 1 crisp), and the easing of each swell.
    public var sharpness = 0.3
    public var easing: Easing = .linear
    /// With cues: one tap at each inhale start and two at each exhale start, instead of single taps.
    public var countedTaps = false
    /// What plays during holds: silence, slow faint ticks, or a soft faint pulse.
    public var holdSignal: HoldSignal = .none

    /// Cue taps: inhale 0.7, exhale 0.5. The session-complete taps at 0, 0.15, 0.3 s fade as the
    /// breathing-app vocabulary this is modeled on: (count - index) / count, i.e. 1.0, 0.67, 0.33 (times
    /// the strength). Until issue 15 they were 0.6, 0.4, 0.2.
    public static let inhaleTap = 0.7
    public static let exhaleTap = 0.5
    public static let endTaps: [(Double, Double)] = (0..<3).map { (0.15 * Double($0), Double(3 - $0) / 3) }
    /// A cue tap lasts this long; the swell it announces starts right after it.
    public static let tapSeconds = 0.03

    /// The defaults: one cycle, no ramp, no cues, full strength, peak 0.8, sharpness 0.3, linear, silent holds.
    public init() {}

    public static func == (a: BreathOptions, b: BreathOptions) -> Bool {
        a.length == b.length && a.rampBPM?.from == b.rampBPM?.from && a.rampBPM?.to == b.rampBPM?.to
            && a.cues == b.cues && a.strength == b.strength && a.peak == b.peak && a.sharpness == b.sharpness
            && a.easing == b.easing && a.countedTaps == b.countedTaps && a.holdSignal == b.holdSignal
    }

    /// Parses "7:5.5" (breaths per minute from:to).
    public static func parseRamp(_ text: String) throws(PatternError) -> (from: Double, to: Double) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]),
              (1...30).contains(a), (1...30).contains(b) else {
            throw PatternError(text: text, reason: "a ramp is FROM:TO breaths per minute, each 1...30, e.g. 7:5.5")
        }
        return (a, b)
    }
}
