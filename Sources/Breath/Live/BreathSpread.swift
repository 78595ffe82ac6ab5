// Where one actuator of several sits along a line and how the breath travels along it: a rising wave moves
// each swell's ramp within its phase (the inhale from the first actuator to the last, the exhale back),
// and a strength of its own. Every actuator's phases still begin and end together.
// SPDX-License-Identifier: Apache-2.0

/// One actuator's place in a spatial breath: its position along a line (0...1), how the breath travels,
/// and its own strength.
///
/// With `.rise`, each swell's ramp takes `1 - fraction` of its phase and starts later the further along
/// the actuator sits: in an inhale the actuator at `position` holds the phase's starting level for
/// `fraction * position` of the phase, ramps, and holds the phase's end level for the rest; in an exhale
/// the order is reversed (`fraction * (1 - position)`), so the fade travels back. Phases still begin and end
/// together on every actuator (the lungs are full on all of them at once); holds and cue taps are not moved.
///
///     // A belt of three: the inhale swells from the lowest motor to the highest over its first half.
///     let places = (0..<3).map { BreathSpread(travel: .rise, position: Double($0) / 2) }
///     var plan = LivePlan(pattern: try BreathPattern.parse("4-7-8"))
///     plan.spread = places[2]  // the highest motor's breath
public struct BreathSpread: Sendable, Equatable {
    /// How a breath travels along the actuators.
    public enum Travel: String, Sendable, CaseIterable {
        /// Every actuator swells at once (the breath as one board plays it).
        case together
        /// The inhale travels from the first actuator to the last, the exhale back.
        case rise
    }

    public var travel: Travel
    /// The share of each swell's phase the travel takes, 0..<1: with 0.5 the last actuator of a 4 s inhale
    /// starts its ramp 2 s after the first.
    public var fraction: Double
    /// Where the actuator sits, 0 (first) ... 1 (last).
    public var position: Double
    /// Multiplies everything this actuator plays (its own strength, 0...1).
    public var gain: Double

    /// The travel's default share of a phase.
    public static let defaultFraction = 0.5

    public init(travel: Travel = .together, fraction: Double = BreathSpread.defaultFraction, position: Double = 0, gain: Double = 1) {
        self.travel = travel
        self.fraction = min(max(fraction, 0), 0.95)
        self.position = min(max(position, 0), 1)
        self.gain = min(max(gain, 0), 1)
    }

    /// The seconds into a `kind` phase of `seconds` at which this actuator's ramp starts and ends (the whole
    /// phase when the breath does not travel, or the phase is not a swell).
    public func ramp(_ kind: BreathPhase, seconds: Double) -> (start: Double, end: Double) {
        guard travel == .rise, kind == .inhale || kind == .exhale else { return (0, seconds) }
        let along = kind == .inhale ? position : 1 - position
        let start = fraction * along * seconds
        return (start, start + (1 - fraction) * seconds)
    }

    /// The swell's progress (0...1, from the phase's start level to its end level) at `t` seconds into a
    /// `kind` phase of `seconds`, where the unmoved swell's would be `t / seconds`.
    public func progress(_ kind: BreathPhase, at t: Double, seconds: Double) -> Double {
        guard seconds > 0 else { return 1 }
        let r = ramp(kind, seconds: seconds)
        guard r.end > r.start else { return t >= r.end ? 1 : 0 }
        return min(1, max(0, (t - r.start) / (r.end - r.start)))
    }
}
