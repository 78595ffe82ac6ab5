// docs/architecture.md against Package.swift: its module table names every library and executable target
// (and no target that is gone), its test table every test target, so the map a newcomer reads is the tree.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ArchitectureDocTests {
    /// The targets Package.swift declares, by kind (system libraries, C shims and support aside).
    static func targets() throws -> (modules: Set<String>, tests: Set<String>) {
        let package = try repoText("Package.swift")
        let modules = try captures(#"\.(?:target|executableTarget)\(\s*name: "([A-Za-z]+)""#, in: package).map { $0[0] }
            .filter { $0.range(of: "^C[A-Z]", options: .regularExpression) == nil && $0 != "TestSupport" }
        let tests = try captures(#"\.testTarget\(\s*name: "([A-Za-z]+)""#, in: package).map { $0[0] }
        return (Set(modules), Set(tests))
    }

    /// The first column of the table whose header starts with `header`.
    static func firstColumn(of header: String) throws -> Set<String> {
        let doc = try repoText("docs/architecture.md")
        let lines = doc.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix(header) }) else { return [] }
        let rows = lines[(start + 2)...].prefix { $0.hasPrefix("|") }
        return Set(rows.map { $0.split(separator: "|")[0].trimmingCharacters(in: .whitespaces) })
    }

    @Test func theModuleTableIsPackageSwift() throws {
        let doc = try Self.firstColumn(of: "| Module |")
        let modules = try Self.targets().modules
        #expect(modules.subtracting(doc).isEmpty, "targets missing from docs/architecture.md: \(modules.subtracting(doc).sorted())")
        let outside: Set = ["C shims", "hardware/firmware", "hardware/avr"]
        let gone = doc.subtracting(modules).subtracting(outside)
        #expect(gone.isEmpty, "docs/architecture.md names modules Package.swift does not have: \(gone.sorted())")
    }

    @Test func theTestTableIsPackageSwift() throws {
        let doc = try Self.firstColumn(of: "| Test target |")
        let tests = try Self.targets().tests
        #expect(tests.subtracting(doc).isEmpty, "test targets missing from docs/architecture.md: \(tests.subtracting(doc).sorted())")
        #expect(doc.subtracting(tests).isEmpty, "docs/architecture.md names test targets Package.swift does not have: \(doc.subtracting(tests).sorted())")
    }
}
