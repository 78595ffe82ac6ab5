// The `id` a client may put on a command: a string or a number of its choosing, echoed on every event the
// command causes exactly as it came (1 as 1, "a" as "a").
// SPDX-License-Identifier: Apache-2.0

/// A command's `id`, echoed on the events it causes: a string, a whole number (signed 64-bit, or unsigned
/// past that) or any other number.
public enum ControlID: Codable, Equatable, Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case string(String)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let s = try? c.decode(String.self) { self = .string(s) }
        else if let i = try? c.decode(Int64.self) { self = .integer(i) }
        else if let u = try? c.decode(UInt64.self) { self = .unsigned(u) }
        else { self = .number(try c.decode(Double.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let s): try c.encode(s)
        case .integer(let i): try c.encode(i)
        case .unsigned(let u): try c.encode(u)
        case .number(let d): try c.encode(d)
        }
    }

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
}
