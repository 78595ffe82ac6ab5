// A nested streaming read for JSON documents whose bulk sits in arrays of objects inside arrays of objects
// (MPEG-I haptics: perceptions -> channels -> bands -> effects -> keyframes): each object on the way is
// opened, its nested array walked, and closed without that array; the innermost elements are handed over one
// at a time and not kept, so memory is what the handler keeps, not the document.
// SPDX-License-Identifier: Apache-2.0

extension JSONParser {
    /// What a walk reports, in document order.
    enum WalkEvent {
        /// An object of the array at `keys[level]` begins.
        case open(level: Int)
        /// An element of the innermost array (`keys.last`).
        case element(JSONValue)
        /// An element of the array at `keys[level]` ends: the object without its walked array (`walked`:
        /// whether it had one), or the element as it was when it is not an object.
        case close(level: Int, value: JSONValue, walked: Bool)
    }

    /// Parses a whole document along `keys`: the top-level object's `keys[0]` array, each of its objects'
    /// `keys[1]` array, and so on; the elements of the last are handed to `handler` as `.element`. A key given
    /// twice, or whose value is not an array, stays in its object for the handler to judge. Returns the
    /// top-level value without `keys[0]`, whether that array was walked, and the first trailing comma.
    static func walk(_ bytes: [UInt8], along keys: [String], handler: (WalkEvent) throws -> Void)
        throws -> (top: JSONValue, walked: Bool, trailingComma: (line: Int, column: Int)?) {
        var p = JSONParser(bytes: bytes)
        p.skipSpace()
        var top: JSONValue, walked = false
        if p.current == UInt8(ascii: "{") {
            (top, walked) = try p.walkObject(level: -1, keys: keys, depth: 0, handler: handler)
        } else {
            top = try p.value(depth: 0)
        }
        try p.end()
        return (top, walked, p.trailingCommaPlace)
    }

    /// The object at `i`, an element of the array at `keys[level]` (-1: the document), with its
    /// `keys[level + 1]` array walked and left out.
    private mutating func walkObject(level: Int, keys: [String], depth: Int, handler: (WalkEvent) throws -> Void) throws -> (JSONValue, Bool) {
        guard depth < JSONParser.maxDepth else { throw error("nested more than \(JSONParser.maxDepth) levels deep") }
        let child = level + 1 < keys.count ? keys[level + 1] : nil
        i += 1
        var fields: [String: JSONValue] = [:]
        var walked = false, members = 0
        while true {
            skipSpace()
            if current == UInt8(ascii: "}") {
                if members > 0 { noteTrailingComma() }
                i += 1
                return (.object(fields), walked)
            }
            guard current == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let name = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            i += 1
            skipSpace()
            if name == child && !walked && current == UInt8(ascii: "[") {
                walked = true
                try walkArray(level: level + 1, keys: keys, depth: depth + 1, handler: handler)
            } else {
                fields[name] = try value(depth: depth + 1)
            }
            members += 1
            skipSpace()
            switch current {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"): i += 1; return (.object(fields), walked)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    /// The array at `i` (the one at `keys[level]`): objects walked further, or handed over at the last level.
    private mutating func walkArray(level: Int, keys: [String], depth: Int, handler: (WalkEvent) throws -> Void) throws {
        guard depth < JSONParser.maxDepth else { throw error("nested more than \(JSONParser.maxDepth) levels deep") }
        i += 1
        var n = 0
        while true {
            skipSpace()
            if current == UInt8(ascii: "]") {
                if n > 0 { noteTrailingComma() }
                i += 1
                return
            }
            if level == keys.count - 1 {
                try handler(.element(try value(depth: depth + 1)))
            } else if current == UInt8(ascii: "{") {
                try handler(.open(level: level))
                let (object, walked) = try walkObject(level: level, keys: keys, depth: depth + 1, handler: handler)
                try handler(.close(level: level, value: object, walked: walked))
            } else {
                try handler(.close(level: level, value: try value(depth: depth + 1), walked: false))
            }
            n += 1
            skipSpace()
            switch current {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): i += 1; return
            default: throw error("expected ',' or ']'")
            }
        }
    }
}
