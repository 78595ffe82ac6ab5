// The AHAP JSON reader against Foundation's JSONSerialization (an independent parser) on random documents
// and random corruptions of them, numbers against Double's own parser, errors with line and column.
// SPDX-License-Identifier: Apache-2.0

@testable import Breath
import Foundation
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct JSONParserTests {
    /// Same structure as JSONSerialization reads (numbers compared as Double reads their text).
    func same(_ a: JSONValue, _ b: Any) -> Bool {
        switch a {
        case .null: return b is NSNull
        case .bool(let v): return (b as? NSNumber)?.boolValue == v
        case .number: return b is NSNumber
        case .string(let s): return (b as? String) == s
        case .array(let items):
            guard let other = b as? [Any], other.count == items.count else { return false }
            return zip(items, other).allSatisfy { same($0, $1) }
        case .object(let fields):
            guard let other = b as? [String: Any], other.count == fields.count else { return false }
            return fields.allSatisfy { k, v in other[k].map { same(v, $0) } ?? false }
        }
    }

    func randomDocument(_ rng: inout SplitMix, depth: Int = 0) -> String {
        let strings = ["Time", "EventType", "a\\\"b", "caf\\u00e9", "\\ud83d\\ude00", "tab\\t", ""]
        switch Int.random(in: 0...(depth > 3 ? 4 : 6), using: &rng) {
        case 0: return ["true", "false", "null"].randomElement(using: &rng)!
        case 1: return ["0", "-0", "1.5", "-2.25e-3", "1E+2", "0.1", "123456789012345678901234567890", "4.9e-324"].randomElement(using: &rng)!
        case 2, 3: return "\"" + strings.randomElement(using: &rng)! + "\""
        case 4: return String(Double.random(in: -1e6...1e6, using: &rng))
        case 5: return "[" + (0..<Int.random(in: 0...4, using: &rng)).map { _ in randomDocument(&rng, depth: depth + 1) }.joined(separator: ", ") + "]"
        default:
            let keys = Set((0..<Int.random(in: 0...4, using: &rng)).map { _ in "k\(Int.random(in: 0...9, using: &rng))" })
            return "{" + keys.map { "\"\($0)\": " + randomDocument(&rng, depth: depth + 1) }.joined(separator: ",\n ") + "}"
        }
    }

    @Test func readsWhatJSONSerializationReadsAndRefusesWhatItRefuses() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix(seed: seed)
        var refused = 0
        for round in 0..<3000 {
            var text = Array(randomDocument(&rng).utf8)
            if round % 2 == 1 {
                // Corrupt it with printable ASCII: insert, delete or replace a byte.
                let printable = Array(" \t\n{}[]:,\"\\-+.0123456789eEtrufalsn".utf8)
                let at = Int.random(in: 0...text.count, using: &rng)
                switch Int.random(in: 0...2, using: &rng) {
                case 0: text.insert(printable.randomElement(using: &rng)!, at: at)
                case 1: if at < text.count { text.remove(at: at) }
                default: if at < text.count { text[at] = printable.randomElement(using: &rng)! }
                }
            }
            let theirs = try? JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed])
            let ours = try? JSONParser.parse(text)
            let doc = String(decoding: text, as: UTF8.self).debugDescription
            if let ours, let theirs {
                #expect(same(ours, theirs), "seed \(seed), round \(round): \(doc)")
            } else {
                #expect((ours == nil) == (theirs == nil), "seed \(seed), round \(round): ours \(ours == nil ? "refused" : "read"), JSONSerialization \(theirs == nil ? "refused" : "read"): \(doc)")
                refused += 1
            }
        }
        #expect(refused > 300)  // the corruptions do break documents
    }

    @Test func numbersAreExactlyWhatDoubleReads() throws {
        for text in ["0.1", "0.30000000000000004", "86399.99999999999", "1e308", "2.2250738585072014e-308", "-5e-324", "123456789.123456789"] {
            guard case .number(let v) = try JSONParser.parse(Array(text.utf8)) else { Issue.record("\(text) not a number"); continue }
            #expect(v == Double(text)!)
        }
        #expect {
            try AHAPImport(data: Data(#"{"Pattern": [{"Event": {"Time": 1e400}}]}"#.utf8))
        } throws: { "\($0)" == "bad AHAP file: line 1, column 33: not valid JSON: number too large" }
    }

    @Test(arguments: [
        ("{\"a\": 1,,}", 1, 9, "expected a key in quotes"),
        ("[1,,]", 1, 4, "unexpected character ','"),
        ("[1, 2\n  3]", 2, 3, "expected ',' or ']'"),
        ("{\"a\": tru}", 1, 10, "expected true"),
        ("{\"a\": 01}", 1, 8, "expected ',' or '}'"),
        ("\"abc", 1, 5, "unterminated string"),
        ("{} x", 1, 4, "unexpected text after the JSON value"),
        ("", 1, 1, "unexpected end of the file"),
    ])
    func errorsSayLineAndColumn(text: String, line: Int, column: Int, reason: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(text.utf8)) }
        do {
            _ = try JSONParser.parse(Array(text.utf8))
        } catch {
            #expect(error.line == line && error.column == column && error.reason == reason, "\(error)")
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect {
            try AHAPImport(data: Data(deep.utf8))
        } throws: { "\($0)".contains("nested more than 128 levels deep") }
    }
}
