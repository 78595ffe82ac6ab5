// Where several actuators sit and how a breath travels along them, from their words: a travel
// (together, rise or rise:SHARE) and each actuator's own place, strength and delay (NAME:at=P,strength=S,
// offset=MS), laid out as one BreathSpread and offset per actuator.
// SPDX-License-Identifier: Apache-2.0

/// One actuator's own place along the line (0...1), strength (0...1) and delay (0...2000 ms), as given
/// (`NAME:at=0.2,strength=0.8,offset=40ms`); what is not given keeps its default (evenly spaced in the
/// layout's order, full strength, no offset).
public struct ActuatorSpec: Sendable, Equatable {
    public var name: String
    public var position: Double?
    public var strength: Double?
    public var offsetMs: Int?

    /// An actuator named `name` with every default.
    public init(name: String) { self.name = name }

    static let why = "expected NAME:at=P,strength=S,offset=MS (a board's name; any of: at 0...1 along the line, strength 0...1, offset 0...2000 ms), e.g. belly:at=0.2,strength=0.8"

    /// `NAME:at=P,strength=S,offset=MS` (any of the three); the reason when it is not.
    public static func parse(_ text: String) throws(LayoutError) -> ActuatorSpec {
        guard let colon = text.firstIndex(of: ":") else { throw LayoutError(why) }
        var a = ActuatorSpec(name: String(text[..<colon]))
        // (a name --board gave, or the last part of a --port's path: ttyUSB0)
        guard !a.name.isEmpty && a.name.count <= 64 && !a.name.contains("=") && !a.name.contains(",") else { throw LayoutError(why) }
        let fields = text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false)
        guard !fields.isEmpty else { throw LayoutError(why) }
        for field in fields {
            let kv = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { throw LayoutError(why) }
            try a.set(kv[0], kv[1])
        }
        return a
    }

    /// One field: at, strength or offset (ms, with or without the unit).
    mutating func set(_ key: String, _ value: String) throws(LayoutError) {
        switch key {
        case "at":
            guard let p = Double(value), (0...1).contains(p) else { throw LayoutError("at: expected 0...1 along the line, got \(value)") }
            position = p
        case "strength":
            guard let s = Double(value), (0...1).contains(s) else { throw LayoutError("strength: expected 0...1, got \(value)") }
            strength = s
        case "offset":
            let ms = value.hasSuffix("ms") ? String(value.dropLast(2)) : value
            guard let o = Int(ms), (0...2000).contains(o) else { throw LayoutError("offset: expected 0...2000 ms, got \(value)") }
            offsetMs = o
        default:
            throw LayoutError(ActuatorSpec.why)
        }
    }
}

/// Why a layout's words cannot be used, as one line.
public struct LayoutError: Error, CustomStringConvertible, Sendable {
    public var description: String

    /// The error `description`.
    public init(_ description: String) { self.description = description }
}

extension BreathSpread {
    static let travelWhy = "expected together, rise or rise:SHARE (SHARE 0.05...0.95 of each swell's phase the travel takes, 0.5 by default)"

    /// `together`, `rise` or `rise:SHARE` (SHARE 0.05...0.95): the travel and its share of each swell's phase.
    public static func parseTravel(_ text: String) throws(LayoutError) -> (travel: Travel, fraction: Double) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let travel = Travel(rawValue: parts.first ?? "") else { throw LayoutError(travelWhy) }
        guard parts.count == 2 else { return (travel, defaultFraction) }
        guard travel == .rise, let f = Double(parts[1]), (0.05...0.95).contains(f) else { throw LayoutError(travelWhy) }
        return (travel, f)
    }

    /// One spread and offset per actuator, in `names`' order: positions evenly spaced (0 ... 1) unless an
    /// actuator gives one. Throws the one-line reason for an actuator naming no board, or one named twice.
    public static func layout(names: [String], travel: Travel, fraction: Double, actuators: [ActuatorSpec]) throws(LayoutError)
        -> [(spread: BreathSpread, offsetMs: Int)] {
        for a in actuators where !names.contains(a.name) {
            throw LayoutError("--actuator \(a.name): no board is named \(a.name) (the boards: \(names.joined(separator: ", ")))")
        }
        var seen = Set<String>()
        for a in actuators where !seen.insert(a.name).inserted {
            throw LayoutError("--actuator \(a.name): given twice (give a board's at, strength and offset in one --actuator)")
        }
        return names.enumerated().map { k, name in
            let given = actuators.last { $0.name == name }
            let even = names.count > 1 ? Double(k) / Double(names.count - 1) : 0
            let s = BreathSpread(travel: travel, fraction: fraction, position: given?.position ?? even, gain: given?.strength ?? 1)
            return (s, given?.offsetMs ?? 0)
        }
    }
}
