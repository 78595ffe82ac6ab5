// What an app needs from the control channel: a `state` command answering the whole current state (and a
// client that connects late gets it at once), and a client-chosen `id` echoed by every event a command
// causes. Real processes against a simulated board process; the cycle the state names is checked against
// the phase events the board's PLAYED evidence produced.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(5))) struct ControlStateTests {
    @Test func stateAndIdsAnswerTheClient() throws {
        let board = try SimBoardProcess()
        defer { board.kill() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mb-state-\(getpid()).sock").path
        let host = try RunningMotorbreath(["--port", board.ptyPath, "--pattern", "1-0-1", "--cycles", "6", "--quiet", "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        var events = client.events(until: { $0["event"] as? String == "phase" && $0["cycle"] as? Int == 2 })
        #expect(events.first?["event"] as? String == "prepared")
        #expect(events.dropFirst().first?["event"] as? String == "state")  // at once, after prepared

        usleep(250_000)  // the state is what the host last showed (10 times a second): past this phase's start
        client.send(#"{"command":"intensity","value":0.5,"id":"a1"}"#)
        client.send(#"{"command":"pace","bpm":40,"id":7}"#)
        client.send(#"{"command":"state","id":"s"}"#)
        events = client.events(until: { $0["event"] as? String == "applied" && $0["command"] as? String == "intensity" })
        let errors = events.filter { $0["event"] as? String == "error" }
        #expect(errors.count == 1 && errors.first?["id"] as? Int == 7, "\(errors)")
        let state = try #require(events.first { $0["event"] as? String == "state" })
        #expect(state["id"] as? String == "s")
        #expect(state["pattern"] as? String == "1-0-1")
        #expect(state["paused"] as? Bool == false)
        #expect(state["cycles"] as? Int == 6)
        #expect((state["cycle"] as? Int ?? 0) >= 2, "\(state)")  // the board showed cycle 2 begun
        #expect(state["phase"] is String && state["board"] is String && state["link"] as? String == "playing", "\(state)")
        let applied = try #require(events.last)
        #expect(applied["id"] as? String == "a1", "\(applied)")
        #expect(applied["value"] as? Double == 0.5)

        client.send(#"{"command":"pause","id":"p"}"#)
        events = client.events(until: { $0["event"] as? String == "applied" && $0["command"] as? String == "pause" })
        #expect(events.last?["id"] as? String == "p")
        client.send(#"{"command":"state"}"#)
        events = client.events(until: { $0["event"] as? String == "state" })
        #expect(events.last?["paused"] as? Bool == true)
        #expect(events.last?["id"] == nil)
        client.send(#"{"command":"stop"}"#)
        let result = host.finish(timeout: 20)
        _ = board.stop()
        #expect(result.status == 130)
    }
}
