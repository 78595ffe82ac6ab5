// Every motorbreath command line the README and docs/usage.md show parses as written (in process, as main
// parses it): an option renamed or a value refused in the code shows here, naming the doc and the line.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
@testable import motorbreath
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct DocCommandTests {
    /// The indented `motorbreath ...` lines of a Markdown file (continued by a trailing backslash), without
    /// their `#` comments, as argument lists; lines with quotes, pipes or placeholders are left out.
    static func commands(in path: String) throws -> [(line: Int, arguments: [String])] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let lines = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
        var out: [(Int, [String])] = []
        var i = 0
        while i < lines.count {
            let start = i
            var text = lines[i]
            i += 1
            guard text.hasPrefix("    ") || text.hasPrefix("\t"),
                  text.trimmingCharacters(in: .whitespaces).hasPrefix("motorbreath ") || text.trimmingCharacters(in: .whitespaces) == "motorbreath"
            else { continue }
            while text.hasSuffix("\\"), i < lines.count {
                text = String(text.dropLast()) + " " + lines[i]
                i += 1
            }
            if let hash = text.range(of: " #") { text = String(text[..<hash.lowerBound]) }
            guard !text.contains("\""), !text.contains("'"), !text.contains("|"), !text.contains("<"), !text.contains("&&"),
                  !text.contains("...") else { continue }
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            out.append((start + 1, Array(words.dropFirst())))
        }
        return out
    }

    @Test(arguments: ["README.md", "docs/usage.md"])
    func everyCommandShownParses(doc: String) throws {
        let commands = try Self.commands(in: doc)
        #expect(commands.count >= 5, "\(doc): \(commands.count) command lines found")
        for (line, arguments) in commands {
            let r = parseLine(arguments)
            #expect(r.status == 0, "\(doc):\(line): motorbreath \(arguments.joined(separator: " ")): \(r.line ?? "")")
        }
    }
}
