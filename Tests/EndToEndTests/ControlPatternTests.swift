// The `pattern` and `patterns` commands from a client's side, with real processes: `patterns` lists every
// preset of the pattern table; a bad pattern is refused with the reason `--pattern` gives on the command
// line (the command line's own output is the oracle); a change at the next cycle is acknowledged with the
// tick of the new pattern's first phase, and the phase events, `state` and a later client's `prepared`
// name the new pattern. (Its timing on the board's true clock: Tests/TimingTests/PatternChangeTests.)
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(5))) struct ControlPatternTests {
    /// What `motorbreath --pattern TEXT` says is wrong with TEXT: its line after the option's name.
    func commandLineReason(_ text: String) throws -> String {
        let result = try runMotorbreath(["--simulate", "--quiet", "--pattern", text, "--cycles", "1"], timeout: 30)
        let prefix = "motorbreath: The value '\(text)' is invalid for '--pattern <pattern>': "
        let line = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(result.status == 64 && line.hasPrefix(prefix), "\(result.status): \(result.stderr)")
        return String(line.dropFirst(prefix.count))
    }

    @Test func patternsListsThePresetsAndABadPatternIsRefusedAsOnTheCommandLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mb-pat-\(getpid()).sock").path
        let host = try RunningMotorbreath(["--simulate", "--pattern", "1-0-1", "--loop", "--quiet", "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        _ = client.events(until: { $0["event"] as? String == "state" })

        client.send(#"{"command":"patterns","id":"p"}"#)
        let listed = try #require(client.events(until: { $0["event"] as? String == "patterns" }).last)
        #expect(listed["id"] as? String == "p")
        let patterns = try #require(listed["patterns"] as? [[String: Any]])
        #expect(patterns.map { $0["name"] as? String } == BreathPattern.presets.map(\.name))
        for (p, preset) in zip(patterns, BreathPattern.presets) {
            let phases = p["phases"] as? [[String: Any]] ?? []
            #expect(phases.map { $0["phase"] as? String } == preset.phases.map(\.kind.rawValue), "\(p)")
            #expect(phases.map { $0["seconds"] as? Double } == preset.phases.map(\.seconds), "\(p)")
            #expect(p["cycle_seconds"] as? Double == preset.cycleSeconds)
        }

        for bad in ["0.1-0-4", "4-7-121", "4-0.05-4", "fast", "-4-7-8"] {
            client.send(#"{"command":"pattern","pattern":"\#(bad)","id":"b"}"#)
            let error = try #require(client.events(until: { $0["event"] as? String == "error" }).last)
            #expect(error["message"] as? String == "pattern: the value '\(bad)' is invalid for \"pattern\": \(try commandLineReason(bad))")
            #expect(error["id"] as? String == "b")
        }
        client.send(#"{"command":"pattern","pattern":"box","at":"later"}"#)
        let at = try #require(client.events(until: { $0["event"] as? String == "error" }).last)
        #expect(at["message"] as? String == #"pattern: "at" must be next or now"#)
        client.send(#"{"command":"stop"}"#)
        #expect(host.finish(timeout: 20).status == 130)
    }

    @Test func aChangeAtTheNextCycleIsNamedByItsEvents() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mb-pat2-\(getpid()).sock").path
        let host = try RunningMotorbreath(["--simulate", "--pattern", "1-0-1", "--cycles", "3", "--quiet", "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        var events = client.events(until: { $0["event"] as? String == "phase" && $0["cycle"] as? Int == 1 })
        #expect(events.last?["pattern"] as? String == "1-0-1")
        client.send(#"{"command":"pattern","pattern":"1-1-2","id":"n"}"#)
        client.send(#"{"command":"state","id":"s"}"#)
        events = client.events(until: { $0["event"] as? String == "applied" })
        let state = try #require(events.first { $0["event"] as? String == "state" })
        #expect(state["pattern"] as? String == "1-1-2" && state["bpm"] as? Double == 15, "\(state)")
        let applied = try #require(events.last)
        #expect(applied["command"] as? String == "pattern" && applied["pattern"] as? String == "1-1-2", "\(applied)")
        #expect(applied["at"] as? String == "next" && applied["id"] as? String == "n")
        // The new pattern reached the motor with cycle 2's first phase: the same frame and board tick.
        let phases = events.filter { $0["event"] as? String == "phase" }
        let rest = client.events(until: { $0["event"] as? String == "finished" })
        let all = phases + rest.filter { $0["event"] as? String == "phase" }
        let second = try #require(all.first { $0["cycle"] as? Int == 2 })
        #expect(second["phase"] as? String == "inhale")
        #expect(applied["board_tick"] as? Int == second["board_tick"] as? Int && applied["frame"] as? Int == second["frame"] as? Int)
        #expect(all.allSatisfy { $0["pattern"] as? String == ($0["cycle"] as? Int == 1 ? "1-0-1" : "1-1-2") }, "\(all)")
        #expect(all.filter { $0["cycle"] as? Int ?? 0 >= 2 }.map { $0["phase"] as? String } == ["inhale", "hold", "exhale", "inhale", "hold", "exhale"])
        #expect(host.finish(timeout: 20).status == 0)
    }

    @Test func aLaterClientIsGreetedWithTheNewPattern() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mb-pat3-\(getpid()).sock").path
        let host = try RunningMotorbreath(["--simulate", "--pattern", "1-0-1", "--loop", "--quiet", "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let first = try SocketClient(path: path)
        _ = first.events(until: { $0["event"] as? String == "state" })
        first.send(#"{"command":"pattern","pattern":"coherent","at":"now"}"#)
        _ = first.events(until: { $0["event"] as? String == "applied" })
        let later = try SocketClient(path: path)
        let hello = later.events(until: { $0["event"] as? String == "state" })
        #expect(hello.first?["event"] as? String == "prepared" && hello.first?["pattern"] as? String == "coherent", "\(hello)")
        #expect(hello.last?["pattern"] as? String == "coherent" && hello.last?["bpm"] as? Double == 60 / 11)
        later.send(#"{"command":"stop"}"#)
        #expect(host.finish(timeout: 20).status == 130)
    }
}
