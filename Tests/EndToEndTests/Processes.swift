// `motorbreath sim-board` in its own process for the end-to-end tests (running motorbreath itself: TestSupport).

import Foundation
import TestSupport

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
