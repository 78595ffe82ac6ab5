// The three ways to stop a playing breath at once end alike: Ctrl-C, the `stop` command and the `q` key
// turn the motor off with a STOP and exit 130 (docs/control.md). Real processes on a real terminal
// (tmux) against a simulated board process; the oracle is the board's drive log: the motor was on, and
// went off at the last message the board heard (a STOP, not its failsafe).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(5))) struct StopExitTests {
    func expectStoppedByHost(_ drive: DriveRecord) throws {
        #expect(drive.changes.contains { $0.level > 0 }, "it never played")
        let off = try #require(drive.lastOff), heard = try #require(drive.lastRxTick)
        #expect(drive.changes.last?.level == 0 && off >= heard && off - heard < 20_000, "not turned off by the host's STOP")
        #expect(drive.failsafeTrips == 0)
    }

    @Test func theStopCommandExits130() throws {
        let board = try SimBoardProcess()
        defer { board.kill() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mb-stop-\(getpid()).sock").path
        let host = try RunningMotorbreath(["--port", board.ptyPath, "--pattern", "2-0-2", "--loop", "--quiet", "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        _ = client.events(until: { $0["event"] as? String == "phase" })
        client.send(#"{"command":"stop"}"#)
        let result = host.finish(timeout: 20)
        let drive = board.stop()
        #expect(result.status == 130, "\(result.stderr)")
        try expectStoppedByHost(drive)
    }

    @Test(arguments: ["q", "C-c"])
    func aKeyInTheTerminalExits130(key: String) async throws {
        let board = try SimBoardProcess()
        defer { board.kill() }
        // The script's shell ignores Ctrl-C (so it lives to print the status); motorbreath sets its own handler.
        let pane = try TmuxPane(columns: 100, script: """
            trap '' INT
            '\(motorbreathBinary.path)' --port '\(board.ptyPath)' --pattern 2-0-2 --loop
            echo "exit $?"
            sleep 60
            """)
        defer { pane.kill() }
        _ = try await pane.wait(timeout: 20, for: "the live line") { $0.contains { $0.contains("intensity") } }
        try await Task.sleep(for: .milliseconds(500))
        try pane.sendKeys(key)
        let ended = try await pane.wait(timeout: 20, for: "the exit") { $0.contains { $0.hasPrefix("exit ") } }
        let drive = board.stop()
        #expect(ended.contains("exit 130"), "\(ended)")
        try expectStoppedByHost(drive)
    }
}
