// Every public type in the library targets carries a `///` doc comment (Quick Help and DocC show it; a `//`
// file header they do not). Scans Sources/ except the command-line target and names each undocumented type.
// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// A `public`/`open` type declaration in Sources/ and whether a `///` line sits directly above it
/// (attribute lines such as `@frozen` or `@available(...)` in between are skipped).
struct PublicTypeDeclaration: Equatable {
    let file: String  // relative to Sources/, e.g. "Breath/Fidelity.swift"
    let line: Int
    let name: String
    let documented: Bool

    var key: String { "\(file): \(name)" }

    static let pattern = try! NSRegularExpression(
        pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:final|indirect|nonisolated)\s+)*(?:struct|enum|class|protocol|actor)\s+(\w+)"#)

    /// The declarations in one file's text.
    static func scan(_ text: String, file: String) -> [PublicTypeDeclaration] {
        let lines = text.components(separatedBy: "\n")
        var found: [PublicTypeDeclaration] = []
        for (index, line) in lines.enumerated() {
            let ns = line as NSString
            guard let match = pattern.firstMatch(in: line, range: NSRange(location: 0, length: ns.length)) else { continue }
            var above = index - 1
            while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") { above -= 1 }
            let documented = above >= 0 && lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///")
            found.append(PublicTypeDeclaration(file: file, line: index + 1, name: ns.substring(with: match.range(at: 1)),
                                               documented: documented))
        }
        return found
    }

    /// Every declaration under Sources/, the command-line target (Sources/motorbreath) left out.
    static func all() throws -> [PublicTypeDeclaration] {
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        var found: [PublicTypeDeclaration] = []
        for url in files {
            let file = String(url.standardizedFileURL.path.dropFirst(sources.standardizedFileURL.path.count + 1))
            if file.hasPrefix("motorbreath/") { continue }
            found += scan(try String(contentsOf: url, encoding: .utf8), file: file)
        }
        return found.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
    }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct PublicTypeDocsTests {
    /// Types allowed to stay undocumented for a while (empty: every public type has its comment).
    static let notYetDocumented: Set<String> = []

    @Test("every public type in Sources/ (the CLI target aside) has a /// comment")
    func everyPublicTypeIsDocumented() throws {
        let declarations = try PublicTypeDeclaration.all()
        #expect(declarations.count > 50, "the scan found only \(declarations.count) public types; is Sources/ moved?")
        let missing = declarations.filter { !$0.documented && !Self.notYetDocumented.contains($0.key) }
        for type in missing {
            Issue.record("Sources/\(type.file):\(type.line): public type \(type.name) has no /// doc comment above it")
        }
        let stale = Self.notYetDocumented.subtracting(declarations.filter { !$0.documented }.map(\.key))
        #expect(stale.isEmpty, "allow-listed but documented or gone (remove from notYetDocumented): \(stale.sorted())")
    }

    @Test("the scanner accepts attributes between the comment and the type, and rejects a // header")
    func scannerReadsCommentsAndAttributes() {
        let text = """
            // File purpose line.
            public struct Plain {}
            /// Documented.
            @frozen public enum WithAttribute { case a }
            /// Documented.
            @available(macOS 14, *)
            public final class Final {}

            public protocol AfterBlank {}
            struct Internal {}
                /// Nested and documented.
                public indirect enum Nested { case a }
            """
        let found = PublicTypeDeclaration.scan(text, file: "X.swift")
        #expect(found.map(\.name) == ["Plain", "WithAttribute", "Final", "AfterBlank", "Nested"])
        #expect(found.map(\.documented) == [false, true, true, false, true])
    }
}
