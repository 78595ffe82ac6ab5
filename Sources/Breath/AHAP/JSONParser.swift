// A small JSON reader (RFC 8259) for AHAP files: one pass over the bytes, numbers read exactly (Double's
// own correctly rounded parser), nesting bounded, errors that say the line and column. Like Foundation's
// JSONSerialization (Apple's and Linux's), it allows one trailing comma before ']' or '}', and says where
// the first one was (Core Haptics refuses them). One array of the top-level object can be streamed: its
// elements handed over one at a time instead of kept, so a file's memory is a small multiple of its size.
// SPDX-License-Identifier: Apache-2.0

/// Where and why JSON text is not valid.
struct JSONSyntaxError: Error {
    var line: Int
    var column: Int
    var reason: String
}

struct JSONParser {
    /// Deeper nesting than this is refused (an AHAP file needs about 6 levels).
    static let maxDepth = 128

    let bytes: [UInt8]
    var i = 0
    /// Where the first trailing comma was (the offset of the ']' or '}' after it).
    private var trailingComma: Int?

    /// Parses a whole document: one value, surrounded by whitespace only.
    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var p = JSONParser(bytes: bytes)
        p.skipSpace()
        let value = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == bytes.count else { throw p.error("unexpected text after the JSON value") }
        return value
    }

    /// A document read with the array under one top-level key streamed.
    struct Streamed {
        /// The top-level value: an object without the streamed array, or whatever else the document was.
        var top: JSONValue
        /// Whether the top-level object had the key with an array value (its elements went to `element`).
        var streamed: Bool
        /// Line and column of the first trailing comma, if any.
        var trailingComma: (line: Int, column: Int)?
    }

    /// Parses a whole document; if it is an object whose `key` holds an array, each element of that array
    /// goes to `element` (with its index) as soon as it is read and is not kept. `element`'s errors pass
    /// through as they are; the document's own are JSONSyntaxError.
    static func parse(_ bytes: [UInt8], streaming key: String, element: (JSONValue, Int) throws -> Void) throws -> Streamed {
        var p = JSONParser(bytes: bytes)
        p.skipSpace()
        guard p.current == UInt8(ascii: "{") else {
            let value = try p.value(depth: 0)
            try p.end()
            return Streamed(top: value, streamed: false, trailingComma: p.trailingCommaPlace)
        }
        p.i += 1
        var fields: [String: JSONValue] = [:]
        var streamed = false
        p.skipSpace()
        if p.current == UInt8(ascii: "}") {
            p.i += 1
            try p.end()
            return Streamed(top: .object(fields), streamed: false, trailingComma: nil)
        }
        members: while true {
            p.skipSpace()
            if p.current == UInt8(ascii: "}") && (!fields.isEmpty || streamed) {
                p.noteTrailingComma()
                p.i += 1
                break
            }
            guard p.current == UInt8(ascii: "\"") else { throw p.error("expected a key in quotes") }
            let name = try p.string()
            p.skipSpace()
            guard p.current == UInt8(ascii: ":") else { throw p.error("expected ':' after a key") }
            p.i += 1
            p.skipSpace()
            if name == key && !streamed && p.current == UInt8(ascii: "[") {
                streamed = true
                try p.streamArray(element)
            } else {
                fields[name] = try p.value(depth: 1)
            }
            p.skipSpace()
            switch p.current {
            case UInt8(ascii: ","): p.i += 1
            case UInt8(ascii: "}"): p.i += 1; break members
            default: throw p.error("expected ',' or '}'")
            }
        }
        try p.end()
        return Streamed(top: .object(fields), streamed: streamed, trailingComma: p.trailingCommaPlace)
    }

    /// A document read with the arrays at some key paths streamed.
    struct PathStreamed {
        /// The top-level value, without the streamed arrays.
        var top: JSONValue
        /// The key paths whose arrays were streamed (a second array at one of them is kept in `top`).
        var streamed: Set<[String]>
        /// Line and column of the first trailing comma, if any.
        var trailingComma: (line: Int, column: Int)?
    }

    /// Parses a whole document; each array found at one of `paths` (keys from the top-level object down)
    /// has its elements handed to `element` (the path, the element, its index) as soon as each is read, and
    /// not kept. `element`'s errors pass through as they are; the document's own are JSONSyntaxError.
    static func parse(_ bytes: [UInt8], streaming paths: Set<[String]>,
                      element: ([String], JSONValue, Int) throws -> Void) throws -> PathStreamed {
        var p = JSONParser(bytes: bytes)
        var streamed: Set<[String]> = []
        p.skipSpace()
        let top = p.current == UInt8(ascii: "{")
            ? try p.streamingObject(at: [], depth: 0, paths: paths, streamed: &streamed, element: element)
            : try p.value(depth: 0)
        try p.end()
        return PathStreamed(top: top, streamed: streamed, trailingComma: p.trailingCommaPlace)
    }

    /// The object at `i` (at key path `path`): members on the way to a streamed path are read this way too,
    /// a streamed path's first array goes to `element`, everything else is kept.
    private mutating func streamingObject(at path: [String], depth: Int, paths: Set<[String]>, streamed: inout Set<[String]>,
                                          element: ([String], JSONValue, Int) throws -> Void) throws -> JSONValue {
        guard depth < JSONParser.maxDepth else { throw error("nested more than \(JSONParser.maxDepth) levels deep") }
        i += 1
        var fields: [String: JSONValue] = [:]
        var members = 0
        skipSpace()
        if current == UInt8(ascii: "}") {
            i += 1
            return .object(fields)
        }
        while true {
            skipSpace()
            if current == UInt8(ascii: "}") && members > 0 {
                noteTrailingComma()
                i += 1
                return .object(fields)
            }
            guard current == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let name = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            i += 1
            skipSpace()
            let here = path + [name]
            if paths.contains(here) && !streamed.contains(here) && current == UInt8(ascii: "[") {
                streamed.insert(here)
                try streamArray(depth: here.count + 1) { try element(here, $0, $1) }
            } else if current == UInt8(ascii: "{") && paths.contains(where: { $0.count > here.count && Array($0.prefix(here.count)) == here }) {
                fields[name] = try streamingObject(at: here, depth: depth + 1, paths: paths, streamed: &streamed, element: element)
            } else {
                fields[name] = try value(depth: depth + 1)
            }
            members += 1
            skipSpace()
            switch current {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"): i += 1; return .object(fields)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    /// The array at `i`, its elements (at `depth`: 2 inside a top-level object) handed to `element`.
    private mutating func streamArray(depth: Int = 2, _ element: (JSONValue, Int) throws -> Void) throws {
        guard depth - 1 < JSONParser.maxDepth else { throw error("nested more than \(JSONParser.maxDepth) levels deep") }
        i += 1
        skipSpace()
        if current == UInt8(ascii: "]") {
            i += 1
            return
        }
        var n = 0
        while true {
            skipSpace()
            if current == UInt8(ascii: "]") && n > 0 {
                noteTrailingComma()
                i += 1
                return
            }
            try element(try value(depth: depth), n)
            n += 1
            skipSpace()
            switch current {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): i += 1; return
            default: throw error("expected ',' or ']'")
            }
        }
    }

    /// Only whitespace may follow the value.
    mutating func end() throws(JSONSyntaxError) {
        skipSpace()
        guard i == bytes.count else { throw error("unexpected text after the JSON value") }
    }

    mutating func noteTrailingComma() {
        if trailingComma == nil { trailingComma = i }
    }

    var trailingCommaPlace: (line: Int, column: Int)? { trailingComma.map { place(of: $0) } }

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Line and column (1-based, counted in bytes) of offset `k`.
    private func place(of k: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for b in bytes[..<min(k, bytes.count)] {
            if b == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    func error(_ reason: String) -> JSONSyntaxError {
        let (line, column) = place(of: i)
        return JSONSyntaxError(line: line, column: column, reason: reason)
    }

    var current: UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func skipSpace() {
        while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 }
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        for b in literal.utf8 {
            guard current == b else { throw error("expected \(literal)") }
            i += 1
        }
        return value
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < JSONParser.maxDepth else { throw error("nested more than \(JSONParser.maxDepth) levels deep") }
        guard let b = current else { throw error("unexpected end of the file") }
        switch b {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected \(JSONParser.shown(b))")
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        i += 1
        var fields: [String: JSONValue] = [:]
        skipSpace()
        if current == UInt8(ascii: "}") {
            i += 1
            return .object(fields)
        }
        while true {
            skipSpace()
            if current == UInt8(ascii: "}") && !fields.isEmpty {
                noteTrailingComma()
                i += 1
                return .object(fields)
            }
            guard current == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let key = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            i += 1
            skipSpace()
            fields[key] = try value(depth: depth + 1)
            skipSpace()
            switch current {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"): i += 1; return .object(fields)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            i += 1
            return .array(items)
        }
        while true {
            skipSpace()
            if current == UInt8(ascii: "]") && !items.isEmpty {
                noteTrailingComma()
                i += 1
                return .array(items)
            }
            items.append(try value(depth: depth + 1))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): i += 1; return .array(items)
            default: throw error("expected ',' or ']'")
            }
        }
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard let b = current else { throw error("unterminated string") }
            i += 1
            switch b {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = current else { throw error("unterminated string") }
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out.append(contentsOf: try unicodeEscape())
                default: throw error("unknown escape after '\\': \(JSONParser.shown(e))")
                }
            case 0..<0x20:
                throw error("control character in a string")
            default:
                out.append(b)
            }
        }
    }

    /// A byte for an error line: a printable ASCII character in quotes, anything else as its value (a NUL,
    /// a control character or a byte of a multi-byte character is never echoed raw).
    static func shown(_ b: UInt8) -> String {
        (0x21...0x7E).contains(b) ? "character '\(Character(Unicode.Scalar(b)))'" : "byte 0x\(b < 16 ? "0" : "")\(String(b, radix: 16, uppercase: true))"
    }

    /// After "\u": four hex digits; a surrogate pair is joined, a lone surrogate refused.
    private mutating func unicodeEscape() throws(JSONSyntaxError) -> [UInt8] {
        func hex4(_ p: inout JSONParser) throws(JSONSyntaxError) -> UInt32 {
            var v: UInt32 = 0
            for _ in 0..<4 {
                guard let b = p.current, let d = Character(Unicode.Scalar(b)).hexDigitValue else { throw p.error("bad \\u escape") }
                v = v * 16 + UInt32(d)
                p.i += 1
            }
            return v
        }
        var code = try hex4(&self)
        if (0xD800..<0xDC00).contains(code) {
            guard current == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") else {
                throw error("unpaired surrogate in a \\u escape")
            }
            i += 2
            let low = try hex4(&self)
            guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in a \\u escape") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("unpaired surrogate in a \\u escape") }
        return Array(String(Character(scalar)).utf8)
    }

    /// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, read by Double (correctly rounded); beyond Double's
    /// range is refused.
    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = i
        func digits(_ p: inout JSONParser) -> Int {
            let from = p.i
            while let b = p.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) { p.i += 1 }
            return p.i - from
        }
        if current == UInt8(ascii: "-") { i += 1 }
        if current == UInt8(ascii: "0") {
            i += 1
        } else if digits(&self) == 0 {
            throw error("expected a digit")
        }
        if current == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw error("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            i += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let v = Double(text) else { throw error("not a number") }
        guard v.isFinite else {
            i = start
            throw error("number too large")
        }
        return v
    }
}
