// Every suite says its tier with a tag, and the fast tier's suites have time for a loaded machine: .ci/tiers
// (which .ci/test runs to pick each tier's suites) checks the sources here, and is shown refusing a suite
// without a tier, so the rule cannot quietly stop holding.
// SPDX-License-Identifier: Apache-2.0
import Foundation
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct TierRuleTests {
    /// `.ci/tiers` with `arguments`: its exit status, standard output and standard error.
    func tiers(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(python, "python3 is needed (.ci/install installs it)"))
        process.arguments = [repositoryRoot.appendingPathComponent(".ci/tiers").path] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, o, e)
    }

    @Test func everySuiteHereHasATier() throws {
        let r = try tiers(["check"])
        #expect(r.status == 0, "\(r.err)")
        let fast = try tiers(["filter", "fast"])
        #expect(fast.out.contains("TimingTests\\.ReportCounterTests") && fast.out.contains("EndToEndTests\\.InputTableTests"))
        #expect(!fast.out.contains("PtyLoopbackTests"))
        #expect(try tiers(["filter", "emulated"]).out.contains("EmulatedBoardTests\\.EmulatedBoardTests"))
    }

    /// A scratch tree of one test target: a suite with no tier, one in the fast tier with too short a limit,
    /// a type holding tests with no @Suite, and a tiered one. The script names the three, and not the fourth.
    @Test func aSuiteWithoutATierIsRefused() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tiers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = root.appendingPathComponent("Tests/SomeTests")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let at = "@"  // spelled apart: the lines below are not suites of this file
        try """
            import Testing

            \(at)Suite(.timeLimit(.minutes(10))) struct Untiered {
                \(at)Test func a() {}
            }

            \(at)Suite(.tags(.fast),
                   .timeLimit(.minutes(1)))
            struct Hurried {
                \(at)Test func b() {}
            }

            struct Bare {
                \(at)Test func c() {}
            }

            \(at)Suite(.tags(.realTime), .timeLimit(.minutes(3))) struct Fine {
                \(at)Test func d() {}
            }
            """.write(to: dir.appendingPathComponent("Some.swift"), atomically: true, encoding: .utf8)
        let r = try tiers(["check", "--root", root.path])
        #expect(r.status != 0)
        #expect(r.err.contains("Untiered") && r.err.contains("Hurried") && r.err.contains("Bare"), "\(r.err)")
        #expect(!r.err.contains("Fine"), "\(r.err)")
        let listed = root.appendingPathComponent("list.txt")
        try "SomeTests.Fine/d()\nSomeTests.Elsewhere/e()\n".write(to: listed, atomically: true, encoding: .utf8)
        let withList = try tiers(["check", "--root", root.path, "--list", listed.path])
        #expect(withList.err.contains("SomeTests.Elsewhere/e()"), "\(withList.err)")
    }
}
