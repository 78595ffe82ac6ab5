// Steering a playing breath from outside, with real processes: a program on the Unix socket changes
// intensity and pace, pauses and resumes, and finishes; every change comes back as an event with the
// board's tick, phase starts arrive as they play, and the report shows no frame the host did not mean.
// Keys in a real terminal (tmux) do the same, and the terminal is given back as it was.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

/// A Unix-socket client: send lines, read lines.
final class SocketClient {
    let fd: Int32
    private var pending: [UInt8] = []

    init(path: String, timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var connected: Int32 = -1
        while Date() < deadline {
            let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { b in
                for (i, c) in path.utf8.enumerated() { b[i] = c }
            }
            let r = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if r == 0 {
                connected = s
                break
            }
            close(s)
            usleep(50_000)
        }
        guard connected >= 0 else { throw TmuxError(description: "no control socket at \(path)") }
        fd = connected
    }

    deinit { close(fd) }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// The next line within `timeout` seconds (nil: none came).
    func readLine(timeout: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let i = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<i], as: UTF8.self)
                pending.removeSubrange(...i)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left * 1000)) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &buffer, 4096)
            guard n > 0 else { return nil }
            pending += buffer[0..<n]
        }
    }

    /// Lines until one satisfies `stop` (it included), or the time is up.
    func events(until stop: ([String: Any]) -> Bool, timeout: Double = 30) -> [[String: Any]] {
        var out: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(timeout)
        while let line = readLine(timeout: max(0.1, deadline.timeIntervalSinceNow)) {
            guard let e = try? jsonObject(line) else { continue }
            out.append(e)
            if stop(e) { break }
        }
        return out
    }
}

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct ControlTests {
    func socketPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mb-ctl-\(UUID().uuidString.prefix(8)).sock").path
    }

    @Test func aProgramOnTheSocketSteersTheBreath() throws {
        let gate = RealTimeGate()
        defer { gate.release() }
        let path = socketPath()
        let host = try RunningMotorbreath(["--simulate", "--pattern", "2-1-2-1", "--loop", "--quiet", "--json", "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        var events = client.events(until: { $0["event"] as? String == "phase" })  // prepared, then the first inhale
        #expect(events.first?["event"] as? String == "prepared")
        for command in [#"{"command":"intensity","value":0.4}"#, #"{"command":"pace","bpm":9}"#, #"{"command":"pause"}"#,
                        #"{"command":"resume"}"#, #"{"command":"finish"}"#] {
            client.send(command)
            let name = try #require(try jsonObject(command)["command"] as? String)
            events += client.events(until: { $0["event"] as? String == "applied" && $0["command"] as? String == name })
        }
        client.send(#"{"command":"louder"}"#)
        events += client.events(until: { $0["event"] as? String == "finished" }, timeout: 60)
        let result = host.finish(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")

        let applied = events.filter { $0["event"] as? String == "applied" }.compactMap { $0["command"] as? String }
        #expect(applied == ["intensity", "pace", "pause", "resume", "finish"])
        let phases = events.filter { $0["event"] as? String == "phase" }
        #expect(phases.count >= 3)
        // Every event that says when something happened says it on the board's clock, increasing.
        let ticks = events.compactMap { $0["board_tick"] as? Int }
        #expect(ticks.count == applied.count + phases.count)
        #expect(phases.allSatisfy { $0["time"] is String && $0["cycle"] is Int })
        #expect(events.contains { $0["event"] as? String == "error" && ($0["message"] as? String)?.contains("louder") == true })
        // The simulated board's record: every frame it played is one the host meant at the time.
        let report = try jsonObject(result.stdout)
        #expect(report["wrong_duties"] as? Int == 0)
        #expect(report["duty_mismatches"] as? Int == 0)
        #expect((report["replaced"] as? Int ?? 0) > 0)
        #expect(report["motor_off_at_exit"] as? Bool == true)
    }

    @Test func keysInATerminalSteerTheBreathAndTheTerminalComesBack() async throws {
        let gate = RealTimeGate()
        defer { gate.release() }
        let path = socketPath()
        let binary = motorbreathBinary.path
        let pane = try TmuxPane(columns: 100, script: """
            stty -g > "$PANE_DIR/before"
            '\(binary)' --simulate --pattern 2-1-2-1 --loop --control-socket '\(path)'
            echo "exit $?"
            stty -g > "$PANE_DIR/after.part" && mv "$PANE_DIR/after.part" "$PANE_DIR/after"
            sleep 60
            """)
        defer { pane.kill() }
        let client = try SocketClient(path: path)
        _ = client.events(until: { $0["event"] as? String == "phase" })
        var applied: [String] = []
        for (key, command) in [("Down", "intensity"), ("Right", "pace"), ("Space", "pause"), ("Space", "resume"), ("f", "finish")] {
            try pane.sendKeys(key)
            let got = client.events(until: { $0["event"] as? String == "applied" && $0["command"] as? String == command })
            applied += got.filter { $0["event"] as? String == "applied" }.compactMap { $0["command"] as? String }
            if key == "Down" {
                _ = try await pane.wait(timeout: 5, for: "the new intensity on the live line") { $0.contains { $0.contains("intensity 90%") } }
            }
        }
        #expect(applied == ["intensity", "pace", "pause", "resume", "finish"])
        let ended = try await pane.wait(timeout: 60, for: "the end") { $0.contains { $0.hasPrefix("exit ") } }
        #expect(ended.contains("exit 0"), "\(ended)")
        let dir = pane.directory
        let deadline = Date().addingTimeInterval(5)
        // `after` appears whole (written aside, then renamed): the shell creates a redirect's file before
        // stty writes into it, and a read in between saw an empty string under load.
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("after").path) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let before = try String(contentsOf: dir.appendingPathComponent("before"), encoding: .utf8)
        let after = try String(contentsOf: dir.appendingPathComponent("after"), encoding: .utf8)
        #expect(before == after, "the terminal's settings were not given back")
        #expect(try pane.cursorVisible())
    }
}

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct ControlDocTests {
    /// docs/control.md's Python client, run as written (a shorter breath, this build's binary).
    @Test func theDocumentedPythonClientWorks() throws {
        let gate = RealTimeGate()
        defer { gate.release() }
        let root = motorbreathBinary.deletingLastPathComponent()
        var docURL = root
        while !FileManager.default.fileExists(atPath: docURL.appendingPathComponent("docs/control.md").path) && docURL.path != "/" {
            docURL = docURL.deletingLastPathComponent()
        }
        let doc = try String(contentsOf: docURL.appendingPathComponent("docs/control.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "```python\n"))
        let end = try #require(doc.range(of: "```", range: start.upperBound..<doc.endIndex))
        var code = String(doc[start.upperBound..<end.lowerBound])
        #expect(code.split(separator: "\n").count < 30)
        code = code.replacingOccurrences(of: "\"motorbreath\"", with: "\"\(motorbreathBinary.path)\"")
            .replacingOccurrences(of: "\"4-7-8\"", with: "\"2-1-2\"")
            .replacingOccurrences(of: "/tmp/breath.sock", with: FileManager.default.temporaryDirectory.appendingPathComponent("doc-\(getpid()).sock").path)
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString).py")
        try code.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", script.path]
        p.environment = testEnvironment()  // the motorbreath the client starts reads no one's config
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let lines = text.split(separator: "\n")
        #expect(lines.first?.hasPrefix("prepared") == true, "\(text)")
        #expect(lines.contains { $0.hasPrefix("applied intensity") })
        #expect(lines.filter { $0.hasPrefix("applied finish") }.count == 1)
        #expect(lines.last?.hasPrefix("finished") == true, "\(text)")
    }
}

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct PaletteTests {
    /// The palette's steady vibration follows intensity and sharpness commands, and a stop ends it with the
    /// motor off (keys drive the same controls; the tmux test above checks keys).
    @Test func thePaletteFollowsItsControls() throws {
        let gate = RealTimeGate()
        defer { gate.release() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mb-pal-\(getpid()).sock").path
        let host = try RunningMotorbreath(["palette", "--simulate", "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        usleep(1_500_000)  // playing by now
        client.send(#"{"command":"intensity","value":0.9}"#)
        var events = client.events(until: { $0["event"] as? String == "applied" })
        client.send(#"{"command":"sharpness","value":0.3}"#)
        events += client.events(until: { $0["event"] as? String == "applied" && $0["command"] as? String == "sharpness" })
        client.send(#"{"command":"stop"}"#)
        let result = host.finish(timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("motor off"))
        let applied = events.filter { $0["event"] as? String == "applied" }
        #expect(applied.compactMap { $0["command"] as? String } == ["intensity", "sharpness"])
        #expect(abs((applied.first?["strength"] as? Double ?? 0) - 0.9) < 1e-9)
        #expect(applied.allSatisfy { $0["board_tick"] is Int })
    }
}
