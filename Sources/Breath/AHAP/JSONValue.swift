// Any JSON value, decoded with JSONDecoder (which reads numbers exactly; JSONSerialization on Linux does not).

enum JSONValue: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    var object: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }
    var array: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var number: Double? { if case .number(let d) = self { return d } else { return nil } }

    /// Short text of the value for error messages.
    var summary: String {
        switch self {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let d): "\(d)"
        case .string(let s): "\"\(s)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
