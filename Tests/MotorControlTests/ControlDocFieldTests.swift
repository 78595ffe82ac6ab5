// docs/control.md's field tables against the message types, both ways: every field of every type has its
// row (type, required, range or values as the type declares them), every row names a field of a type, and
// the doc's transcript and the page's recorded sessions read as the types and print back byte for byte.
// SPDX-License-Identifier: Apache-2.0

import Foundation
@testable import MotorControl
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ControlDocFieldTests {
    /// One row of a field table: the message, the field's path, its type, whether it is required, its values.
    struct Row: Hashable {
        var message: String
        var field: String
        var type: String
        var required: Bool
        var values: String
    }

    static let doc = (try? repoText("docs/control.md")) ?? ""

    /// The rows of the table whose header starts with `header`.
    static func rows(_ header: String) -> [Row] {
        let lines = doc.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix(header) }) else { return [] }
        return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
            let unquote = { (s: String) in s.trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
            return Row(message: unquote(cells[0]), field: unquote(cells[1]), type: cells[2], required: cells[3] == "yes", values: cells[4])
        }
    }

    /// What the types say each row should be, keyed by message and field.
    static func expected(kind: String) -> [String: Row] {
        var rows: [String: Row] = [:]
        for m in ControlMessageShape.all where m.kind == kind {
            for p in m.paths where !(kind == "command" && p.path == "id") {
                rows["\(m.name).\(p.path)"] = Row(message: m.name, field: p.path, type: m.typeName(p.shape, path: p.path), required: p.required, values: "")
            }
        }
        return rows
    }

    func check(kind: String, header: String) {
        let documented = Dictionary(Self.rows(header).filter { $0.message != "every command" }.map { ("\($0.message).\($0.field)", $0) }) { a, _ in a }
        let declared = Self.expected(kind: kind)
        for (key, row) in declared.sorted(by: { $0.key < $1.key }) {
            guard let doc = documented[key] else {
                Issue.record("docs/control.md has no row for the \(kind) `\(row.message)`'s field `\(row.field)`: add | `\(row.message)` | `\(row.field)` | \(row.type) | \(row.required ? "yes" : "no") | |")
                continue
            }
            #expect(doc.type == row.type, "`\(key)`: the doc says \(doc.type), the type \(row.type)")
            #expect(doc.required == row.required, "`\(key)`: the doc says required \(doc.required), the type \(row.required)")
        }
        for key in Set(documented.keys).subtracting(declared.keys).sorted() {
            Issue.record("docs/control.md names the \(kind) field `\(key)`, which no message type has")
        }
    }

    @Test func everyCommandFieldHasItsRowAndEveryRowItsField() {
        check(kind: "command", header: "| command | field |")
        // `id`, once for every command, as ControlMessageShape adds it.
        let id = Self.rows("| command | field |").filter { $0.message == "every command" }
        #expect(id.map(\.field) == ["id"] && id.first?.type == "string or number" && id.first?.required == false)
        // The commands without fields of their own, named in the sentence after the table.
        let fieldless = ControlMessageShape.all.filter { $0.kind == "command" && $0.fields.count == 1 }.map(\.name)
        let sentence = Self.doc.components(separatedBy: "\n").first { $0.hasSuffix("have no fields but `id`.") } ?? ""
        #expect(Set(Self.quoted(sentence)) == Set(fieldless).union(["id"]), "\(sentence)")
    }

    @Test func everyEventFieldHasItsRowAndEveryRowItsField() {
        check(kind: "event", header: "| event | field |")
        // Every event has fields: every one is in the table.
        #expect(Set(Self.rows("| event | field |").map(\.message)) == Set(ControlEvents.names))
    }

    /// The values column states each range and each set of strings the types declare.
    @Test func theValuesAreTheTypes() {
        let rows = Self.rows("| command | field |") + Self.rows("| event | field |")
        for m in ControlMessageShape.all {
            for p in m.paths {
                guard let row = rows.first(where: { $0.message == m.name && $0.field == p.path }) else { continue }
                var values: [String]?
                if case .oneOf(let v) = p.shape { values = v }
                switch m.notes[p.path] {
                case .range(let r), .wholeRange(let r):
                    #expect(row.values.hasPrefix("\(text(r.lowerBound))...\(text(r.upperBound))"), "\(m.name).\(p.path): \(row.values)")
                case .oneOf(let v): values = v
                case nil: break
                }
                if let values { #expect(Self.quoted(row.values) == values, "\(m.name).\(p.path): \(row.values)") }
            }
        }
    }

    /// The transcript's events, and a line of each event it lacks, read as their types and print back the same.
    @Test func theTranscriptReadsAsTheTypes() throws {
        let block = try #require(Self.doc.components(separatedBy: "## A transcript").last?.components(separatedBy: "```").dropFirst().first)
        var lines = block.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{") && !$0.contains(" ... ") }
        #expect(lines.count >= 15)
        lines += [
            #"{"board":"left","command":"intensity","event":"refused","id":3,"reason":"the breath has ended: nothing is left to change","strength":0.5}"#,
            #"{"event":"clock","id":"c","unix_ms":1795944062020.5054}"#,
            #"{"duration_s":2.5,"event":"file","name":"tap.ahap","state":"playing"}"#,
            #"{"count":12,"event":"dropped"}"#,
            #"{"event":"finished","report":{"frames_lost":0,"frames_played":2075,"motor_off_at_exit":true}}"#,
            #"{"board":"a","boards":[{"at":0,"board":"a","motor":"ERM","name":"left","offset_ms":0,"strength":1}],"commands":["stop"],"event":"prepared","frame_rate":250,"motor":"ERM","pattern":"box","protocol":1}"#,
        ]
        var seen: Set<String> = []
        for line in lines {
            let event = try ControlMessages.event(from: line)
            seen.insert(type(of: event).event)
            #expect(event.line == line + "\n")
        }
        #expect(seen == Set(ControlEvents.names))
    }

    /// The page's recorded sessions (Tests/Browser/fixtures, fed to its schedule under node) are events of
    /// this build: each line reads as its type and prints back the same.
    @Test(arguments: ["pace-race.jsonl", "pace-then-pattern.jsonl"])
    func thePagesFixturesAreTheTypes(name: String) throws {
        let text = try repoText("Tests/Browser/fixtures/\(name)")
        let lines = text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{") }
        #expect(lines.count >= 15)
        for line in lines { #expect(try ControlMessages.event(from: line).line == line + "\n") }
    }

    /// The `backticked` words of a cell, in order.
    static func quoted(_ cell: String) -> [String] {
        cell.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }
}
