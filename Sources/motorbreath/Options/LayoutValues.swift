// Where several actuators sit and how a breath travels along them: --spread together|rise[:SHARE] and
// --actuator NAME:at=P,strength=S,offset=MS (a board's own position, strength and delay).
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath

/// --spread: how the breath travels along the boards, in the layout's order.
struct SpreadValue: ArgumentValue, Equatable {
    var travel: BreathSpread.Travel
    /// The share of each swell's phase the travel takes.
    var fraction: Double

    static let why = "expected together, rise or rise:SHARE (SHARE 0.05...0.95 of each swell's phase the travel takes, 0.5 by default)"

    static func value(_ text: String) throws(ValueProblem) -> SpreadValue {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let travel = BreathSpread.Travel(rawValue: parts.first ?? "") else { throw ValueProblem(why) }
        guard parts.count == 2 else { return SpreadValue(travel: travel, fraction: BreathSpread.defaultFraction) }
        guard travel == .rise, let f = Double(parts[1]), (0.05...0.95).contains(f) else { throw ValueProblem(why) }
        return SpreadValue(travel: travel, fraction: f)
    }
}

/// --actuator NAME:at=P,strength=S,offset=MS: one board's place along the line (0...1), its own strength
/// (0...1) and its own delay (0...2000 ms); what is not given keeps its default (evenly spaced in the
/// layout's order, full strength, no offset).
struct ActuatorValue: ArgumentValue, Equatable {
    var name: String
    var position: Double?
    var strength: Double?
    var offsetMs: Int?

    static let why = "expected NAME:at=P,strength=S,offset=MS (a board's name; any of: at 0...1 along the line, strength 0...1, offset 0...2000 ms), e.g. belly:at=0.2,strength=0.8"

    static func value(_ text: String) throws(ValueProblem) -> ActuatorValue {
        guard let colon = text.firstIndex(of: ":") else { throw ValueProblem(why) }
        var a = ActuatorValue(name: String(text[..<colon]))
        // (a name --board gave, or the last part of a --port's path: ttyUSB0)
        guard !a.name.isEmpty && a.name.count <= 64 && !a.name.contains("=") && !a.name.contains(",") else { throw ValueProblem(why) }
        let fields = text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false)
        guard !fields.isEmpty else { throw ValueProblem(why) }
        for field in fields {
            let kv = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { throw ValueProblem(why) }
            switch kv[0] {
            case "at":
                guard let p = Double(kv[1]), (0...1).contains(p) else { throw ValueProblem("at: expected 0...1 along the line, got \(kv[1])") }
                a.position = p
            case "strength":
                guard let s = Double(kv[1]), (0...1).contains(s) else { throw ValueProblem("strength: expected 0...1, got \(kv[1])") }
                a.strength = s
            case "offset":
                let ms = kv[1].hasSuffix("ms") ? String(kv[1].dropLast(2)) : kv[1]
                guard let o = Int(ms), (0...2000).contains(o) else { throw ValueProblem("offset: expected 0...2000 ms, got \(kv[1])") }
                a.offsetMs = o
            default:
                throw ValueProblem(why)
            }
        }
        return a
    }

    init(name: String) { self.name = name }
}

/// Each board's place in a spatial breath, from the layout's names, --spread and --actuator.
enum ActuatorLayout {
    /// One `BreathSpread` and offset per board, in `names`' order: positions evenly spaced (0 ... 1) unless
    /// an --actuator gives one. Throws the one-line reason for an --actuator naming no board, or one board twice.
    static func places(names: [String], spread: SpreadValue?, actuators: [ActuatorValue]) throws(ValueProblem)
        -> [(spread: BreathSpread, offsetMs: Int)] {
        for a in actuators where !names.contains(a.name) {
            throw ValueProblem("--actuator \(a.name): no board is named \(a.name) (the boards: \(names.joined(separator: ", ")))")
        }
        var seen = Set<String>()
        for a in actuators where !seen.insert(a.name).inserted {
            throw ValueProblem("--actuator \(a.name): given twice (give a board's at, strength and offset in one --actuator)")
        }
        return names.enumerated().map { k, name in
            let given = actuators.last { $0.name == name }
            let even = names.count > 1 ? Double(k) / Double(names.count - 1) : 0
            let s = BreathSpread(travel: spread?.travel ?? .together, fraction: spread?.fraction ?? BreathSpread.defaultFraction,
                                 position: given?.position ?? even, gain: given?.strength ?? 1)
            return (s, given?.offsetMs ?? 0)
        }
    }
}
