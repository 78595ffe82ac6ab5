// Running the built motorbreath binary from tests: path, spawn with pipes, wait with a deadline.

import Foundation

/// The motorbreath executable built next to this test bundle.
let motorbreathBinary: URL = {
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return exe.deletingLastPathComponent().appendingPathComponent("motorbreath")
}()

struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs motorbreath with `arguments` to completion (killed after `timeout` seconds).
func runMotorbreath(_ arguments: [String], timeout: Double = 60, environment: [String: String] = [:]) throws -> RunResult {
    // Output goes to files, not pipes: a child writing more than a pipe holds would block forever.
    let dir = FileManager.default.temporaryDirectory
    let outURL = dir.appendingPathComponent("out-\(UUID().uuidString)"), errURL = dir.appendingPathComponent("err-\(UUID().uuidString)")
    FileManager.default.createFile(atPath: outURL.path, contents: nil)
    FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }
    let p = Process()
    p.executableURL = motorbreathBinary
    p.arguments = arguments
    if !environment.isEmpty {
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    p.standardOutput = try FileHandle(forWritingTo: outURL)
    p.standardError = try FileHandle(forWritingTo: errURL)
    try p.run()
    let deadline = Date().addingTimeInterval(timeout)
    while p.isRunning && Date() < deadline { usleep(10_000) }
    if p.isRunning { p.terminate() }
    p.waitUntilExit()
    return RunResult(status: p.terminationStatus,
                     stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                     stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
}

/// `motorbreath sim-board` in its own process; `ptyPath` is the tty the host opens.
final class SimBoardProcess {
    let process = Process()
    let ptyPath: String
    let driveLog: URL

    init(arguments: [String] = [], echo: Bool = false) throws {
        driveLog = FileManager.default.temporaryDirectory.appendingPathComponent("drive-\(UUID().uuidString).log")
        process.executableURL = motorbreathBinary
        process.arguments = ["sim-board", "--drive-log", driveLog.path] + arguments + (echo ? ["--echo"] : [])
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var line = Data()
        let handle = out.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        ptyPath = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// SIGTERM, wait, and return the board's drive log as (tick, level) pairs.
    func stop() -> [(tick: UInt64, level: Int16)] {
        process.terminate()
        process.waitUntilExit()
        let text = (try? String(contentsOf: driveLog, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: driveLog)
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count == 2, let t = UInt64(f[0]), let l = Int16(f[1]) else { return nil }
            return (t, l)
        }
    }
}
