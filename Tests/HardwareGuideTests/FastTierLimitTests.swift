// The fast tier runs its suites side by side on two cores, where a millisecond test can wait minutes for a
// thread: every suite .ci/test puts in it needs a 10-minute time limit, or it fails on a loaded machine
// (1- and 2-minute limits fired there twice). Reads the tier from .ci/test itself, so the two cannot drift.
// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct FastTierLimitTests {
    /// The fast tier's test targets, and the end-to-end suites it takes, as .ci/test names them.
    static func fastTier() throws -> (targets: [String], suites: [String]) {
        let script = try repoText(".ci/test")
        let targets = try captures(#"fast='\^\(([A-Za-z|]+)\)\\\.'"#, in: script).first?[0].split(separator: "|").map(String.init) ?? []
        let suites = try captures(#"fast\+='\|\^EndToEndTests\\\.\(([A-Za-z|]+)\)/'"#, in: script).first?[0].split(separator: "|").map(String.init) ?? []
        return (targets, suites)
    }

    @Test func everyFastSuiteHasTenMinutes() throws {
        let (targets, suites) = try Self.fastTier()
        #expect(targets.count >= 8 && targets.contains("TimingTests"), "\(targets)")
        #expect(suites.contains("InputTableTests"), "\(suites)")
        var files: [String] = []
        for target in targets {
            let dir = repositoryRoot.appendingPathComponent("Tests/\(target)")
            let walker = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                if url.pathExtension == "swift" { files.append(String(url.path.dropFirst(repositoryRoot.path.count + 1))) }
            }
        }
        #expect(files.count > 50, "found only \(files.count) files in the fast targets")
        for file in files { try check(file, suites: nil) }
        let e2e = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("Tests/EndToEndTests").path)
        for name in e2e where name.hasSuffix(".swift") { try check("Tests/EndToEndTests/\(name)", suites: Set(suites)) }
    }

    /// Every `.timeLimit(.minutes(N))` of a suite in the fast tier has N >= 10 (`suites`: only these suites).
    func check(_ file: String, suites: Set<String>?) throws {
        let suiteMark = "@" + "Suite(", limitMark = ".time" + "Limit("  // spelled apart: this line is not a suite
        for line in try repoText(file).split(separator: "\n") where line.contains(suiteMark) && line.contains(limitMark) {
            if let suites {
                guard let name = try captures(#"struct (\w+)"#, in: String(line)).first?[0], suites.contains(name) else { continue }
            }
            let minutes = try captures(#"\.timeLimit\(\.minutes\((\d+)\)\)"#, in: String(line)).first.flatMap { Int($0[0]) }
            #expect(minutes.map { $0 >= 10 } ?? false, "\(file): \(line.trimmingCharacters(in: .whitespaces)) (the fast tier needs 10 minutes)")
        }
    }
}
