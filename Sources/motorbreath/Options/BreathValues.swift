// The option values that describe a breath: --pattern, --ramp, --easing, --hold and --strength, each
// parsed once by its type, with its range and its error line.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath

/// --pattern: a preset (4-7-8, box, coherent, sigh) or in-hold-out[-holdout] seconds; phases 0.5...120 s,
/// holds 0 or 0.1...120 s (BreathPattern.parse says which part is wrong).
extension BreathPattern: ExpressibleByArgument, ArgumentValue {
    static func value(_ text: String) throws(ValueProblem) -> BreathPattern {
        do { return try BreathPattern.parse(text) } catch { throw ValueProblem(error.reason) }
    }

    /// The default pattern.
    static let fourSevenEight = try! BreathPattern.parse("4-7-8")
}

/// --ramp FROM:TO: the breathing rate across the session, breaths per minute, each 1...30.
struct BreathRamp: ArgumentValue, Equatable {
    var from: Double
    var to: Double

    static func value(_ text: String) throws(ValueProblem) -> BreathRamp {
        do {
            let r = try BreathOptions.parseRamp(text)
            return BreathRamp(from: r.from, to: r.to)
        } catch { throw ValueProblem(error.reason) }
    }

    /// As BreathOptions takes it.
    var bpm: (from: Double, to: Double) { (from, to) }
}

/// --easing: linear, sine-in-out, smoothstep or cubic-in-out.
extension Easing: ExpressibleByArgument, ChoiceValue {}

/// --hold: none, ticks or pulse.
extension HoldSignal: ExpressibleByArgument, ChoiceValue {}

/// --strength: off, subtle, moderate, strong or a number 0...1; its text is what play remembers.
struct StrengthSetting: ArgumentValue, Equatable {
    /// As given (remembered as is: "subtle" stays a word).
    var text: String
    /// The level 0...1.
    var level: Double

    static let strong = StrengthSetting(text: "strong", level: 1)

    static func value(_ text: String) throws(ValueProblem) -> StrengthSetting {
        do { return StrengthSetting(text: text, level: try Strength.parse(text)) } catch { throw ValueProblem(error.reason) }
    }
}
