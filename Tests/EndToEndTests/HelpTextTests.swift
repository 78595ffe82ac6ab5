// --help as an 80-column terminal shows it: paragraphs wrapped by the parser, never broken inside a
// sentence by a hard line break, and example lines short enough not to wrap.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct HelpTextTests {
    static let commands = ["", "play", "ports", "info", "bench", "conform", "latency", "palette", "calibrate", "selftest", "render", "fidelity", "benchmark", "sim-board"]

    @Test(arguments: commands)
    func helpWrapsParagraphsAndKeepsExamplesWhole(command: String) throws {
        let r = try runMotorbreath((command.isEmpty ? [] : [command]) + ["--help"], environment: ["COLUMNS": "80"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count > 5)
        func indented(_ s: String) -> Bool { s.hasPrefix(" ") }
        func header(_ s: String) -> Bool { s.hasPrefix("USAGE:") || s.hasPrefix("OVERVIEW:") || (s.hasSuffix(":") && s == s.uppercased()) }
        for (a, b) in zip(lines, lines.dropFirst()) where !a.hasPrefix("USAGE:") {
            // A prose line followed by more prose: the next word must not have fitted (the parser fills lines to
            // 79 columns), so the break is the parser's, not a hard one.
            if !a.isEmpty, !b.isEmpty, !indented(a), !indented(b), !header(b), !a.hasSuffix(":") {
                let word = b.split(separator: " ").first.map(String.init) ?? b
                #expect(a.count + 1 + word.count >= 80, "\(command) --help breaks a sentence early: '\(a)' / '\(b)'")
            }
            // An example (indented) line is never continued at column 0 (it wrapped).
            if indented(a), !b.isEmpty, !indented(b) {
                #expect(header(b), "\(command) --help wraps '\(a)' into '\(b)'")
            }
        }
    }
}
