// A small JSON writer: sorted keys, two-space indents, and numbers in Swift's shortest form that reads
// back to the same Double (Foundation's writer on Linux can lose the last bit).
// SPDX-License-Identifier: Apache-2.0

enum JSONText {
    indirect enum Value {
        case number(Double)
        case string(String)
        case array([Value])
        case object([String: Value])
    }

    static func write(_ v: Value, indent: String = "") -> String {
        let inner = indent + "  "
        switch v {
        case .number(let d):
            if d == d.rounded() && abs(d) < 1e15 { return String(Int64(d)) + ".0" }
            return d.description
        case .string(let s):
            var out = "\""
            for ch in s.unicodeScalars {
                switch ch {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                default:
                    if ch.value < 0x20 { out += "\\u" + String(ch.value, radix: 16).leftPadded(4) } else { out.unicodeScalars.append(ch) }
                }
            }
            return out + "\""
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { inner + write($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let fields):
            if fields.isEmpty { return "{}" }
            let body = fields.keys.sorted().map { inner + write(.string($0)) + ": " + write(fields[$0]!, indent: inner) }
            return "{\n" + body.joined(separator: ",\n") + "\n" + indent + "}"
        }
    }
}

extension String {
    fileprivate func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
