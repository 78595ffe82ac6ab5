// The option values of render, sim-board and calibration: --format, --resolution, --break, --sim-motor,
// --spot and --profile, each parsed once by its type, with its range and its error line.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath
import Calibration
import SimBoard

/// render --format.
enum RenderFormat: String, ChoiceValue {
    case csv, json, ahap, haptic, hjif, android
    case androidEnvelope = "android-envelope", svg
}

/// render --resolution: u8, u16 or i16.
extension DutyResolution: ExpressibleByArgument, ChoiceValue {}

/// sim-board --break: the protocol promise a simulated board breaks on purpose.
extension Breakage: ExpressibleByArgument, ChoiceValue {}

/// calibrate --sim-motor: the motor the simulated person feels.
enum SimulatedMotor: String, ChoiceValue {
    case reference, slower

    /// reference: 80 ms, 15 % start threshold; slower: 100 ms, 18 %.
    var model: ERMModel {
        self == .slower ? ERMModel(riseTau: 0.100, fallTau: 0.100, startThreshold: 0.18)
            : ERMModel(riseTau: 0.080, fallTau: 0.080, startThreshold: 0.15)
    }
}

/// --spot: a body spot, a word of a-z, 0-9 and dashes (it becomes part of a file name).
struct Spot: ArgumentValue, Equatable, CustomStringConvertible {
    var name: String
    var description: String { name }

    static let wrist = Spot(name: "wrist")

    static func value(_ text: String) throws(ValueProblem) -> Spot {
        let ok = !text.isEmpty && text.count <= 32 && text.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        guard ok, !text.hasPrefix("-") else { throw ValueProblem("a spot is a word of a-z, 0-9 and dashes, at most 32 letters, e.g. wrist") }
        return Spot(name: text)
    }
}

/// --profile: none, or a saved profile's name (a word: it is a file name).
enum ProfileChoice: ArgumentValue, Equatable {
    case none
    case named(String)

    static func value(_ text: String) throws(ValueProblem) -> ProfileChoice {
        guard !text.isEmpty, !text.contains("/"), !text.hasPrefix(".") else {
            throw ValueProblem("expected none or a profile name such as 53494d424f415244-wrist (see motorbreath calibrate)")
        }
        return text == "none" ? .none : .named(text)
    }
}
