// One line limit for every way in (64 KiB, named in the error), a longer line discarded without being held
// whole, and NaN / Infinity refused as numbers. Real processes; the oracles are the events a client reads
// and the kernel's record of the process's peak memory (VmHWM), not anything the session reports.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(5))) struct ControlLineLimitTests {
    /// A valid command padded with spaces to `bytes` bytes (valid JSON: main accepted it on stdin).
    func padded(_ bytes: Int) -> String {
        let command = #"{"command":"intensity","value":0.5}"#
        return #"{"command":"intensity","#  + String(repeating: " ", count: bytes - command.count) + #""value":0.5}"#
    }

    func peakMemoryKB(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    @Test func theSocketRefusesALongLineByTheLimit() throws {
        let gate = RealTimeGate()
        defer { gate.release() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mb-long-\(getpid()).sock").path
        let host = try RunningMotorbreath(["--simulate", "--pattern", "2-0-2", "--loop", "--quiet", "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        _ = client.events(until: { $0["event"] as? String == "prepared" })
        client.send(padded(100_000))
        client.send(#"{"command":"pace","bpm":NaN}"#)
        client.send(#"{"command":"intensity","value":-Infinity}"#)
        client.send(#"{"command":"sharpness","value":0.1}"#)
        let events = client.events(until: { $0["event"] as? String == "applied" })
        client.send(#"{"command":"stop"}"#)
        _ = host.finish(timeout: 20)
        let errors = events.filter { $0["event"] as? String == "error" }.compactMap { $0["message"] as? String }
        #expect(errors.count == 3, "\(errors)")
        #expect(errors.first?.contains("65536") == true, "\(errors)")
        #expect(errors.dropFirst().first == #"pace: "bpm" must be a finite number in 1...30"#)
        #expect(errors.last == #"intensity: "value" must be a finite number in 0...1"#)
        #expect(events.last?["command"] as? String == "sharpness")  // the connection still works
    }

    @Test func standardInputHasTheSameLimitAndNeverHoldsALongLine() throws {
        let gate = RealTimeGate()
        defer { gate.release() }
        let host = Process()
        host.executableURL = motorbreathBinary
        host.environment = testEnvironment()
        host.arguments = ["--simulate", "--pattern", "2-0-2", "--loop", "--control", "-"]
        let input = Pipe(), output = Pipe()
        host.standardInput = input
        host.standardOutput = output
        host.standardError = FileHandle.nullDevice
        try host.run()
        defer { if host.isRunning { kill(host.processIdentifier, SIGKILL) } }
        let writer = input.fileHandleForWriting
        // A 1 MB command (taken whole on main), then a 200 MB line, then a NaN, then a good command.
        Thread.detachNewThread {
            writer.write(Data((self.padded(1_000_000) + "\n").utf8))
            let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<200 { writer.write(block) }
            writer.write(Data("\n{\"command\":\"intensity\",\"value\":NaN}\n{\"command\":\"sharpness\",\"value\":0.1}\n".utf8))
        }
        var events: [[String: Any]] = []
        var pending = Data()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && !events.contains(where: { $0["event"] as? String == "applied" }) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let nl = pending.firstIndex(of: 10) {
                if let e = try? jsonObject(String(decoding: pending[pending.startIndex..<nl], as: UTF8.self)) { events.append(e) }
                pending.removeSubrange(pending.startIndex...nl)
            }
        }
        let peakKB = peakMemoryKB(host.processIdentifier)
        writer.write(Data("{\"command\":\"stop\"}\n".utf8))
        host.waitUntilExit()
        let errors = events.filter { $0["event"] as? String == "error" }.compactMap { $0["message"] as? String }
        print("stdin: peak memory \(peakKB / 1024) MB after a 200 MB line; errors \(errors)")
        #expect(errors.count == 3, "\(errors)")
        #expect(errors.prefix(2).allSatisfy { $0.contains("65536") }, "\(errors)")
        #expect(errors.last == #"intensity: "value" must be a finite number in 0...1"#)
        #expect(events.contains { $0["event"] as? String == "applied" && $0["command"] as? String == "sharpness" })
        #expect(peakKB > 0 && peakKB < 150_000, "peak memory \(peakKB / 1024) MB")
        #expect(host.terminationStatus == 130)
    }
}
