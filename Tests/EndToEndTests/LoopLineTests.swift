// A looping breath's live line shows the loop, not the count of cycles its plan has laid out so far
// ("cycle 1/49" was the plan's extended count): one line per phase when standard error is not a terminal.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(2))) struct LoopLineTests {
    @Test func aLoopingBreathShowsItsCycleWithoutACount() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mb-loop-\(getpid()).sock").path
        let host = try RunningMotorbreath(["--simulate", "--pattern", "1-0-1", "--loop", "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        // Stop a phase after the last line the test reads: the socket's event and the stderr line come from
        // different threads, and a stop right at cycle 2's inhale can beat its line (seen on a loaded machine).
        _ = client.events(until: { $0["event"] as? String == "phase" && $0["cycle"] as? Int == 2 && $0["phase"] as? String == "exhale" })
        client.send(#"{"command":"stop"}"#)
        let r = host.finish(timeout: 20)
        #expect(r.status == 130, "\(r.stderr)")
        let phases = r.stderr.split(separator: "\n").filter { $0.hasPrefix("cycle ") }
            .map { $0.replacing(try! Regex(#" \d\.\d s$"#), with: "") }
        #expect(Array(phases.prefix(3)) == ["cycle 1 (loop) inhale", "cycle 1 (loop) exhale", "cycle 2 (loop) inhale"], "\(r.stderr)")
    }
}
