// MotorWire and BoardCore compile as one Embedded Swift module for a Cortex-M4, as the firmware does,
// and need no floating point and no heap beyond the runtime helpers the firmware link drops.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct EmbeddedCleanTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The toolchain's own binaries, found next to swiftc on PATH.
    static func tool(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static func run(_ exe: String, _ args: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func boardSourcesCompileAsEmbeddedSwiftWithoutFloatingPoint() throws {
        let swiftc = try #require(Self.tool("swiftc"), "swiftc not on PATH")
        let nm = try #require(Self.tool("llvm-nm"), "llvm-nm not on PATH")
        var sources: [String] = []
        for dir in ["Sources/MotorWire", "Sources/BoardCore"] {
            let url = Self.root.appendingPathComponent(dir)
            for f in try FileManager.default.contentsOfDirectory(atPath: url.path) where f.hasSuffix(".swift") {
                sources.append(url.appendingPathComponent(f).path)
            }
        }
        let object = FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID().uuidString).o").path
        defer { try? FileManager.default.removeItem(atPath: object) }
        let (status, output) = try Self.run(swiftc, [
            "-target", "armv7em-none-none-eabi", "-enable-experimental-feature", "Embedded", "-wmo", "-Osize",
            "-parse-as-library", "-Xfrontend", "-function-sections", "-Xfrontend", "-disable-stack-protector",
            "-module-name", "Firmware", "-c", "-o", object,
        ] + sources)
        #expect(status == 0, "\(output)")
        let (_, symbols) = try Self.run(nm, ["-u", object])
        let undefined = symbols.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        // Allowed: memory and 64-bit integer helpers from compiler-rt, and two allocator entry points
        // referenced only by runtime functions the firmware's --gc-sections link removes.
        let allowed: Set<String> = ["free", "posix_memalign", "__aeabi_uldivmod", "__aeabi_llsl", "__aeabi_llsr"]
        let unexpected = undefined.filter { !allowed.contains($0) && !$0.hasPrefix("__aeabi_mem") }
        #expect(unexpected.isEmpty, "unexpected dependencies: \(unexpected)")
        #expect(!undefined.contains { $0.hasPrefix("__aeabi_d") || $0.hasPrefix("__aeabi_f") }, "floating point crept in")
    }
}
