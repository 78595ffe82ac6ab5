// Where several actuators sit and how a breath travels along them: --spread together|rise[:SHARE] and
// --actuator NAME:at=P,strength=S,offset=MS (a board's own position, strength and delay), parsed by Breath.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath

/// --spread: how the breath travels along the boards, in the layout's order.
struct SpreadValue: ArgumentValue, Equatable {
    var travel: BreathSpread.Travel
    /// The share of each swell's phase the travel takes.
    var fraction: Double

    static func value(_ text: String) throws(ValueProblem) -> SpreadValue {
        do {
            let (travel, fraction) = try BreathSpread.parseTravel(text)
            return SpreadValue(travel: travel, fraction: fraction)
        } catch { throw ValueProblem(error.description) }
    }
}

/// --actuator NAME:at=P,strength=S,offset=MS: one board's place along the line, strength and delay.
typealias ActuatorValue = ActuatorSpec

extension ActuatorSpec: ArgumentValue {
    static func value(_ text: String) throws(ValueProblem) -> ActuatorSpec {
        do { return try ActuatorSpec.parse(text) } catch { throw ValueProblem(error.description) }
    }
}

/// Each board's place in a spatial breath, from the layout's names, --spread and --actuator.
enum ActuatorLayout {
    static func places(names: [String], spread: SpreadValue?, actuators: [ActuatorValue]) throws(ValueProblem)
        -> [(spread: BreathSpread, offsetMs: Int)] {
        do {
            return try BreathSpread.layout(names: names, travel: spread?.travel ?? .together,
                                           fraction: spread?.fraction ?? BreathSpread.defaultFraction, actuators: actuators)
        } catch { throw ValueProblem(error.description) }
    }
}
