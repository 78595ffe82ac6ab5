// How a typed message becomes a line and a line a typed message: the name field (`command` or `event`)
// beside the type's own fields, keys sorted; a line read leniently (NaN, Infinity and numbers too large for
// a Double become strings, so a command names the field instead of failing as "not a command").
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// What a field of a message takes, beyond its JSON type: the docs, the schema and the checks use it.
public enum FieldNote: Sendable, Equatable {
    /// A finite number in the range.
    case range(ClosedRange<Double>)
    /// A whole number in the range.
    case wholeRange(ClosedRange<Double>)
    /// A string, one of these.
    case oneOf([String])
}

/// A message type's fields as the wire names them, for the docs and the schema.
public protocol ControlMessageFields {
    /// What a field takes beyond its JSON type, by its wire name (`boards[].at` inside an array of objects).
    static var notes: [String: FieldNote] { get }
}

/// A coding key made from a string (the name fields, the recorder's keys).
struct WireKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A message with its name field (`"command":"pause"`, `"event":"phase"`) beside its own, and a command's id.
struct Named<Message: Encodable>: Encodable {
    let key: String
    let name: String
    let message: Message
    var id: ControlID?

    func encode(to encoder: any Encoder) throws {
        try message.encode(to: encoder)
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(name, forKey: WireKey(key))
        if let id { try c.encode(id, forKey: WireKey("id")) }
    }
}

enum ControlWire {
    /// `message` as one line: compact, keys sorted, with its name field; newline-terminated.
    static func line(_ message: some Encodable, key: String, name: String, id: ControlID? = nil) -> String {
        let data = (try? ControlJSON.encoder.encode(Named(key: key, name: name, message: message, id: id))) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The name field and `id` of a line, read leniently, and the bytes to decode the message from.
    struct Envelope {
        var name: String?
        var id: ControlID?
        var data: Data
    }

    /// The name field (`key`) and `id` of `line`; nil when it is not a JSON object. A line with NaN,
    /// Infinity or a number too large for a Double is read with those as strings.
    static func envelope(_ line: String, key: String) -> Envelope? {
        let data = Data(line.utf8)
        if let first = read(data, key: key), first.envelope.name != nil, !first.idUnreadable { return first.envelope }
        let marked = Data(markingNonFinite(line).utf8)
        return read(marked, key: key)?.envelope ?? read(data, key: key)?.envelope
    }

    private struct Head: Decodable {
        var name: String?
        var id: ControlID?
        var idUnreadable = false

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: WireKey.self)
            let key = decoder.userInfo[Head.nameKey] as? String ?? "command"
            name = try? c.decode(String.self, forKey: WireKey(key))
            if c.contains(WireKey("id")), (try? c.decodeNil(forKey: WireKey("id"))) != true {
                id = try? c.decode(ControlID.self, forKey: WireKey("id"))
                idUnreadable = id == nil && (try? c.decode(ControlJSON.self, forKey: WireKey("id"))) == nil
            }
        }

        static let nameKey = CodingUserInfoKey(rawValue: "motorbreath.name")!
    }

    private static func read(_ data: Data, key: String) -> (envelope: Envelope, idUnreadable: Bool)? {
        let decoder = JSONDecoder()
        decoder.userInfo[Head.nameKey] = key
        guard let head = try? decoder.decode(Head.self, from: data) else { return nil }
        return (Envelope(name: head.name, id: head.id, data: data), head.idUnreadable)
    }

    /// The wire name of the field a decoding error is about (nil: the message as a whole).
    static func field(of error: any Error) -> String? {
        guard let error = error as? DecodingError else { return nil }
        switch error {
        case .keyNotFound(let key, let context):
            return (context.codingPath + [key]).first?.stringValue
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.first?.stringValue
        @unknown default:
            return nil
        }
    }
}

/// `line` with the non-JSON number words NaN, Infinity and -Infinity (which JavaScript and Python's json
/// write) outside strings turned into a string, so the command is read and its value refused by name; so
/// too a number too large for a Double (`1e999`, which Foundation's JSON readers do not take); one too small
/// for it (`1e-400`) becomes 0.
func markingNonFinite(_ line: String) -> String {
    var out = ""
    var inString = false, escaped = false
    var i = line.startIndex
    while i < line.endIndex {
        let c = line[i]
        if inString {
            if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
        } else if c == "\"" {
            inString = true
        } else if let word = ["-Infinity", "Infinity", "NaN"].first(where: { line[i...].hasPrefix($0) }) {
            out += "\"\(word)\""
            i = line.index(i, offsetBy: word.count)
            continue
        } else if c == "-" || c.isASCII && c.isNumber {
            // A number: as it is, unless it overflows a Double.
            let end = line[i...].firstIndex { !($0.isASCII && ($0.isNumber || "+-.eE".contains($0))) } ?? line.endIndex
            let token = line[i..<end]
            let value = Double(token)
            if value?.isInfinite == true {
                out += "\"\(token)\""
            } else if value == 0, token.contains(where: { "123456789".contains($0) }) {
                out += "0"  // too small for a Double (1e-400): zero, as JavaScript reads it
            } else {
                out += token
            }
            i = end
            continue
        }
        out.append(c)
        i = line.index(after: i)
    }
    return out
}
