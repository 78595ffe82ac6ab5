// A burst of commands on a machine busy with other work never stops the breath: docs/control.md promises a
// slow client never slows it, and docs/usage.md that a 150 ms host stall does not trip the failsafe. The
// player runs at nice 10 while two busy loops hold both cores; one client sends 1000 commands as fast as
// the socket takes them. Judged by the sim-board process: its failsafe never fired, no frame came too late.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorSession
import Testing
import TestSupport

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(3))) struct ControlStarvationTests {
    @Test func aCommandBurstAtNice10OnABusyMachineKeepsTheBreath() throws {
        let gate = RealTimeGate(exclusive: true)  // the load is this test's; no other real-time test beside it
        defer { gate.release() }
        let seed = ProcessInfo.processInfo.environment["MOTORBREATH_BURST_SEED"].flatMap { UInt64($0) }
            ?? UInt64(Date().timeIntervalSince1970)
        var rng = SplitMix64(seed: seed)
        signal(SIGPIPE, SIG_IGN)
        let board = try SimBoardProcess(gated: false)
        defer { board.kill() }
        let path = controlSocketPath("burst")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("burst-out-\(UUID().uuidString)")
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("burst-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        let host = Process()
        host.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
        host.arguments = ["-n", "10", motorbreathBinary.path, "--port", board.ptyPath, "--pattern", "2-1-2", "--loop",
                          "--quiet", "--json", "--control-socket", path]
        host.environment = testEnvironment()
        host.standardOutput = try FileHandle(forWritingTo: out)
        host.standardError = try FileHandle(forWritingTo: err)
        try host.run()
        defer { if host.isRunning { kill(host.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        _ = client.events(until: { $0["event"] as? String == "phase" })
        let load = try BusyLoops(count: 2)  // both cores busy with ordinary work
        defer { load.stop() }
        usleep(500_000)  // the load settles in
        let commands = [#"{"command":"intensity","value":%U}"#, #"{"command":"sharpness","value":%S}"#,
                        #"{"command":"pause"}"#, #"{"command":"resume"}"#, #"{"command":"state"}"#]
        for _ in 0..<1000 {
            let line = commands[Int(rng.next() % UInt64(commands.count))]
                .replacingOccurrences(of: "%U", with: String(0.3 + 0.7 * rng.unit()))
                .replacingOccurrences(of: "%S", with: String(rng.unit() * 2 - 1))
            client.send(line)
            _ = client.readLine(timeout: 0)
        }
        usleep(2_000_000)  // the player works through the burst under load
        client.send(#"{"command":"resume"}"#)
        client.send(#"{"command":"finish"}"#)
        let events = client.events(until: { $0["event"] as? String == "finished" }, timeout: 60)
        load.stop()
        let deadline = Date().addingTimeInterval(20)
        while host.isRunning && Date() < deadline { usleep(50_000) }
        let drive = board.stop()
        let stdout = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        #expect(events.last?["event"] as? String == "finished", "seed \(seed): \(stderr.suffix(1000))")
        #expect(!host.isRunning && host.terminationStatus == 0, "seed \(seed): \(stderr.suffix(1000))")
        let report = try jsonObject(stdout)
        print("command burst at nice 10, both cores busy (seed \(seed)): host longest silence \(report["host_longest_silence_ms"] ?? "?") ms, board failsafe trips \(drive.failsafeTrips.map(String.init) ?? "?"), underruns \(report["underruns"] ?? "?"), frames lost \(report["frames_lost"] ?? "?") (played late \(report["played_late"] ?? "?"), wrong duties \(report["wrong_duties"] ?? "?"), mismatches \(report["duty_mismatches"] ?? "?"), unreported \(report["unreported"] ?? "?"), replaced too late \(report["replaced_too_late"] ?? "?")), reconnects \(report["reconnects"] ?? "?") \(report["reconnect_reasons"] ?? "")")
        // The board's own records: its failsafe never fired, and no frame's data came after its tick.
        #expect(drive.failsafeTrips == 0, "seed \(seed)")
        #expect(report["underruns"] as? Int == 0 && report["reconnects"] as? Int == 0, "seed \(seed): \(report["reconnect_reasons"] ?? "")")
        #expect(drive.changes.last?.level == 0, "seed \(seed)")
    }
}
