// A JSON value of any shape: what the control protocol carries without a type of its own (a session's
// report, a client's extra fields), and what a schema is written in.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Any JSON value, `Codable` both ways. Integers stay integers (a frame count prints as `75`, not `75.0`);
/// objects print with sorted keys, so one value always prints the same.
public enum ControlJSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([ControlJSON])
    case object([String: ControlJSON])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int64.self) { self = .integer(i) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([ControlJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: ControlJSON].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .integer(let i): try c.encode(i)
        case .number(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// `value` as a JSON value, through its `Encodable` conformance (an object for a struct).
    public init(encoding value: some Encodable) throws {
        self = try JSONDecoder().decode(ControlJSON.self, from: JSONEncoder().encode(value))
    }

    /// This value as compact JSON text, keys sorted, slashes as they are.
    public var text: String { String(decoding: (try? ControlJSON.encoder.encode(self)) ?? Data(), as: UTF8.self) }

    /// The object's fields (nil for any other value).
    public var object: [String: ControlJSON]? { if case .object(let o) = self { o } else { nil } }

    /// The string (nil for any other value).
    public var string: String? { if case .string(let s) = self { s } else { nil } }

    /// The number as a Double (nil for any other value).
    public var double: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }

    /// Compact, sorted keys, `/` unescaped: every line the protocol sends is written this way.
    static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }
}

extension ControlJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: ControlJSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, ControlJSON)...) { self = .object(Dictionary(uniqueKeysWithValues: elements)) }
}
