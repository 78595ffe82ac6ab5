// Many programs steering one breath at once (issue 39): 5-20 clients on the control socket, each sending
// 1000 mixed commands (every command, good values and bad: 1e999, a cycle of 1.5, blank lines, paces from
// 1 to 30, pauses and resumes 1 ms apart, seeks) to a looping breath on a `sim-board` process behind a pty.
// At 0396c2d the player trapped (SIGILL) in 10 of 10 such runs: a clock reply read more than a second late
// made the clock estimate NaN, and a REPLACE run on a lossy line overflowed its size. The player must play
// on: every client's commands answered or taken, `finished` at the end, exit status 0, the socket removed,
// and the board's own drive log showing a breath that ended with the motor off.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing
import Breath

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(1))) struct ControlCrowdTests {
    static let commands = [
        #"{"command":"intensity","value":%U}"#, #"{"command":"intensity","value":1e999}"#, #"{"command":"sharpness","value":%S}"#,
        #"{"command":"pace","bpm":%P}"#, #"{"command":"pause"}"#, #"{"command":"resume"}"#, #"{"command":"pause","id":%N}"#,
        #"{"command":"resume","id":%N}"#, #"{"command":"seek","cycle":%C,"phase":"exhale"}"#, #"{"command":"seek","cycle":%C}"#,
        #"{"command":"seek","cycle":1.5}"#, #"{"command":"state","id":%N}"#, "   ", #"{"command":"pace","bpm":NaN}"#,
        #"{"command":"intensity","value":-1e999,"id":%N}"#, #"{"command":"pattern","pattern":"2-0-2","at":"now"}"#,
        #"{"command":"clock"}"#, "not json",
    ]

    @Test func manyClientsSendingThousandsOfCommandsNeverCrashThePlayer() throws {
        let seed = ProcessInfo.processInfo.environment["MOTORBREATH_CROWD_SEED"].flatMap { UInt64($0) }
            ?? UInt64(Date().timeIntervalSince1970)
        var rng = SplitMix64(seed: seed)
        signal(SIGPIPE, SIG_IGN)  // a player that crashed must fail this test, not end the test process
        let clients = ProcessInfo.processInfo.environment["MOTORBREATH_CROWD_CLIENTS"].flatMap { Int($0) } ?? 5 + Int(rng.next() % 16)
        print("control crowd: seed \(seed), \(clients) clients x 1000 commands")
        let board = try SimBoardProcess()
        defer { board.kill() }
        let path = controlSocketPath("crowd")
        let host = try RunningMotorbreath(["--port", board.ptyPath, "--pattern", "2-1-2", "--loop", "--quiet", "--json",
                                           "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let watcher = try SocketClient(path: path)
        let start = watcher.events(until: { $0["event"] as? String == "phase" })
        #expect(start.first?["event"] as? String == "prepared", "seed \(seed)")

        // Each client on its own thread, with its own seed: 1000 lines as fast as the socket takes them.
        let group = DispatchGroup()
        for c in 0..<clients {
            let clientSeed = rng.next()
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let client = try? SocketClient(path: path) else { return }
                var r = SplitMix64(seed: clientSeed)
                for n in 0..<1000 {
                    var line = Self.commands[Int(r.next() % UInt64(Self.commands.count))]
                    line = line.replacingOccurrences(of: "%U", with: String(r.unit()))
                        .replacingOccurrences(of: "%S", with: String(r.unit() * 2 - 1))
                        .replacingOccurrences(of: "%P", with: String(6 + r.unit() * 24))
                        .replacingOccurrences(of: "%C", with: String(1 + r.next() % 6))
                        .replacingOccurrences(of: "%N", with: String(c * 10_000 + n))
                    client.send(line)
                    _ = client.readLine(timeout: 0)  // read a little: a client that never reads is another test
                }
            }
        }
        #expect(group.wait(timeout: .now() + 30) == .success, "seed \(seed): the clients could not send")
        #expect(host.process.isRunning, "seed \(seed): the player ended under the clients' commands: \(host.stderrSoFar)")

        // The end: fast, so the loop's last breath is short whatever pace the clients left.
        for line in [#"{"command":"resume"}"#, #"{"command":"pace","bpm":30}"#, #"{"command":"seek","cycle":1}"#,
                     #"{"command":"finish","id":"end"}"#] {
            watcher.send(line)
        }
        let events = watcher.events(until: { $0["event"] as? String == "finished" }, timeout: 30)
        let result = host.finish(timeout: 10)
        let drive = board.stop()
        #expect(events.last?["event"] as? String == "finished", "seed \(seed): no finished; \(result.stderr.suffix(2000))")
        #expect(result.status == 0 && host.process.terminationReason == .exit,
                "seed \(seed): exit \(result.status) (\(host.process.terminationReason == .uncaughtSignal ? "signal" : "status")): \(result.stderr.suffix(2000))")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("runtime failure"), "seed \(seed): \(result.stderr.suffix(2000))")
        #expect(!FileManager.default.fileExists(atPath: path), "seed \(seed): the socket was left behind")
        // The board's own record: it played (drive above 0), and the motor is off at the end.
        #expect(drive.changes.contains { $0.level > 0 }, "seed \(seed)")
        #expect(drive.changes.last?.level == 0, "seed \(seed): the drive log ends at \(String(describing: drive.changes.last))")
    }
}
