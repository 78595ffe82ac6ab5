// A `--control -` client that stops reading standard output must not freeze the breath: events wait in a
// bounded queue (the oldest dropped, with a `dropped` event), the session never waits for the reader. The
// oracle is the simulated board process's drive log: its failsafe never fires (the host kept talking).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(5))) struct ControlStdoutTests {
    @Test func aReaderThatStopsReadingDoesNotFreezeTheBreath() throws {
        let board = try SimBoardProcess()
        defer { board.kill() }
        let host = Process()
        host.executableURL = motorbreathBinary
        host.arguments = ["--port", board.ptyPath, "--pattern", "2-0-2", "--cycles", "3", "--control", "-"]
        let input = Pipe(), output = Pipe()
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        host.standardInput = input
        host.standardOutput = output
        host.standardError = try FileHandle(forWritingTo: errURL)
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString)").path
        host.environment = env
        try host.run()
        defer { if host.isRunning { kill(host.processIdentifier, SIGKILL) } }
        let first = firstLine(of: output)
        #expect(first.contains("\"prepared\""), "\(first)")
        // 4000 bad commands (88 KB in) are answered with 4000 error lines (about 500 KB out): far more than
        // the pipe (64 KiB) and the queue (1000 lines) hold. The client reads none of them.
        let bad = String(repeating: #"{"command":"louder"}"# + "\n", count: 4000)
        let writer = input.fileHandleForWriting
        Thread.detachNewThread { writer.write(Data(bad.utf8)) }  // a host that stops reading its stdin must not block the test
        // The breath plays (3 x 4 s) while nobody reads; wait for its end line on stderr.
        let deadline = Date().addingTimeInterval(40)
        var stderr = ""
        while Date() < deadline {
            stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
            if stderr.contains("played ") || !host.isRunning { break }
            usleep(100_000)
        }
        // Now read everything: the events still queued, then `finished`.
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        host.waitUntilExit()
        let drive = board.stop()
        #expect(host.terminationStatus == 0, "\(stderr)")
        #expect(drive.failsafeTrips == 0, "the board's failsafe fired: the host stopped talking to it")
        let lines = rest.split(separator: "\n").compactMap { try? jsonObject(String($0)) }
        let dropped = lines.filter { $0["event"] as? String == "dropped" }
        #expect(!dropped.isEmpty && dropped.allSatisfy { ($0["count"] as? Int ?? 0) > 0 })
        let last = try #require(lines.last)
        #expect(last["event"] as? String == "finished")
        let report = try #require(last["report"] as? [String: Any])
        #expect(report["reconnects"] as? Int == 0, "\(report)")
        #expect(report["underruns"] as? Int == 0, "\(report)")
        // The pin never went quiet for long while the breath played (a frozen host leaves it at 0 for seconds).
        let on = drive.changes.filter { $0.level != 0 }
        let firstOn = try #require(on.first).tick, lastOn = try #require(on.last).tick
        var longestOff: UInt64 = 0
        for (a, b) in zip(drive.changes, drive.changes.dropFirst()) where a.level == 0 && a.tick >= firstOn && b.tick <= lastOn + 1 {
            longestOff = max(longestOff, b.tick - a.tick)
        }
        #expect(longestOff < drive.clockHz / 2, "the motor was off for \(Double(longestOff) / Double(drive.clockHz)) s mid-breath")
    }
}
