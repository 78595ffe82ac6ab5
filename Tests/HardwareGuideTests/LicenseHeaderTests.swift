// Every source file says its licence in an SPDX line near its top (software: Apache-2.0; the hardware
// designs under CERN-OHL-P-2.0 are data files and are covered by hardware/LICENSE), and both licences exist.
// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LicenseHeaderTests {
    /// Source files: Swift, C, assembly, linker scripts, shell and Python scripts, module maps, udev rules,
    /// Makefiles, the CI scripts. Build output and checked-out packages are skipped.
    static func sourceFiles() -> [String] {
        let extensions: Set<String> = ["swift", "c", "h", "S", "ld", "sh", "py", "modulemap", "rules"]
        let skipped: Set<String> = [".build", "build", ".git", ".swiftpm"]
        var found: [String] = []
        for top in ["Sources", "Tests", "Examples", "hardware", ".ci", "Package.swift"] {
            let root = repositoryRoot.appendingPathComponent(top)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey]) else {
                found.append(top)  // a single file (Package.swift)
                continue
            }
            for case let url as URL in walker {
                if skipped.contains(url.lastPathComponent) { walker.skipDescendants(); continue }
                guard (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) != true else { continue }
                let name = url.lastPathComponent
                if extensions.contains(url.pathExtension) || name == "Makefile" || top == ".ci" {
                    found.append(String(url.path.dropFirst(repositoryRoot.path.count + 1)))
                }
            }
        }
        return found.sorted()
    }

    @Test func everySourceFileNamesItsLicence() throws {
        let files = Self.sourceFiles()
        #expect(files.count > 300, "the walk found only \(files.count) source files; did the layout move?")
        for file in files {
            let head = try repoText(file).split(separator: "\n", omittingEmptySubsequences: false).prefix(30)
            if !head.contains(where: { $0.contains("SPDX-License-Identifier: Apache-2.0") }) {
                Issue.record("\(file): no 'SPDX-License-Identifier: Apache-2.0' line in its first 30 lines")
            }
        }
    }

    @Test func bothLicencesAreThere() throws {
        #expect(try repoText("LICENSE").contains("Apache License"))
        #expect(try repoText("LICENSE").contains("Version 2.0, January 2004"))
        #expect(try repoText("hardware/LICENSE").contains("CERN-OHL-P"))
    }
}
