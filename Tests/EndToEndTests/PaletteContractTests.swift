// The control contract holds in the palette too, and sharpness answers in the client's own terms: the
// palette greets with `prepared`, refuses `pace` with a reason, ends on `finish` with a `finished` event;
// `applied` for sharpness carries the value sent, the effective value and the base. A paused breath's live
// line shows the cycle the pause found. Real processes; the palette's end is judged by the simulated
// board's drive log (the motor went off at the host's STOP).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(5))) struct PaletteContractTests {
    @Test func thePaletteKeepsTheContract() throws {
        let board = try SimBoardProcess()
        defer { board.kill() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mb-palc-\(getpid()).sock").path
        let host = try RunningMotorbreath(["palette", "--port", board.ptyPath, "--control-socket", path, "--control-mode", "660"])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        var events = client.events(until: { $0["event"] as? String == "prepared" }, timeout: 20)
        #expect(events.last?["event"] as? String == "prepared", "\(events)")
        var st = stat()
        #expect(stat(path, &st) == 0 && Int(st.st_mode) & 0o777 == 0o660)  // --control-mode, as play takes it
        #expect(events.last?["pattern"] as? String == "palette")
        client.send(#"{"command":"pace","bpm":9}"#)
        events = client.events(until: { $0["event"] as? String == "refused" }, timeout: 5)
        #expect(events.last?["command"] as? String == "pace" && (events.last?["reason"] as? String)?.isEmpty == false, "\(events)")
        client.send(#"{"command":"sharpness","value":0.3}"#)
        events = client.events(until: { $0["event"] as? String == "applied" && $0["command"] as? String == "sharpness" })
        let applied = try #require(events.last)
        #expect(applied["value"] as? Double == 0.3, "\(applied)")
        #expect(abs((applied["effective"] as? Double ?? 0) - 0.6) < 1e-9, "\(applied)")
        #expect(abs((applied["base"] as? Double ?? 0) - 0.3) < 1e-9, "\(applied)")
        client.send(#"{"command":"finish"}"#)
        events = client.events(until: { $0["event"] as? String == "finished" }, timeout: 10)
        let result = host.finish(timeout: 10)
        let drive = board.stop()
        #expect(events.last?["event"] as? String == "finished", "\(events)")
        #expect((events.last?["report"] as? [String: Any])?["motor_off_at_exit"] as? Bool == true)
        #expect(result.status == 0, "\(result.stderr)")
        let off = try #require(drive.lastOff), heard = try #require(drive.lastRxTick)
        #expect(drive.changes.last?.level == 0 && off >= heard && off - heard < 20_000)
    }

    @Test func aPausedBreathShowsItsOwnCycle() async throws {
        let gate = RealTimeGate()
        defer { gate.release() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mb-pline-\(getpid()).sock").path
        let pane = try TmuxPane(columns: 100, script: """
            '\(motorbreathBinary.path)' --simulate --pattern 3-0-3 --cycles 3 --control-socket '\(path)'
            sleep 60
            """)
        defer { pane.kill() }
        let client = try SocketClient(path: path)
        _ = client.events(until: { $0["event"] as? String == "phase" })
        client.send(#"{"command":"pause"}"#)
        _ = try await pane.wait(timeout: 10, for: "the paused line") { $0.contains { $0.contains("paused") } }
        try await Task.sleep(for: .seconds(1))  // past the pause's fade-out: the breath is silent now
        let lines = try pane.lines()
        client.send(#"{"command":"stop"}"#)
        let line = lines.first { $0.contains("paused") } ?? ""
        #expect(line.contains("cycle 1/3"), "\(line)")
    }
}
