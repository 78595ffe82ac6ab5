// The motorbreath command as a user meets it: one-line errors, exit codes, the JSON report.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import MotorSession
import Testing

@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct CommandLineTests {
    @Test func missingPortIsOneClearLine() throws {
        let r = try runMotorbreath(["--port", "/nonexistent"])
        #expect(r.status != 0)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(r.stderr.hasPrefix("motorbreath: no such port /nonexistent"))
        #expect(!r.stderr.contains("Backtrace") && !r.stderr.contains("Fatal"))
        #expect(r.stdout.isEmpty)
    }

    @Test func notASerialPortIsOneClearLine() throws {
        let r = try runMotorbreath(["--port", "/dev/null"])
        #expect(r.status != 0)
        #expect(r.stderr == "motorbreath: /dev/null is not a serial port or terminal device\n")
    }

    @Test(arguments: ["4-x-8", "0-0-0", "-1-2-3", "4-7", "4-7-8-9-10", "4-7-100000"])
    func badPatternIsOneClearLine(pattern: String) throws {
        let r = try runMotorbreath(["--simulate", "--pattern=\(pattern)"])
        #expect(r.status != 0)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("pattern"), "\(r.stderr)")
    }

    @Test func portsJSONIsAnArrayEvenWithNoUSBPorts() throws {
        let r = try runMotorbreath(["ports", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(list.allSatisfy { ($0["path"] as? String)?.hasPrefix("/dev/") == true })
        // Built-in UARTs only with --all: on a machine without USB adapters the default list is [].
        #expect(list.allSatisfy { ($0["transport"] as? String) != "native" })
        let all = try runMotorbreath(["ports", "--json", "--all"])
        let everything = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])
        let listed = Set(everything.compactMap { $0["path"] as? String })
        #expect(Set(list.compactMap { $0["path"] as? String }).isSubset(of: listed))
        // The kernel's own list is the oracle: every tty in /sys/class/tty with a device behind it (not a
        // virtual console or a pty) whose driver is not the 8250 placeholder is a port that must be listed,
        // and nothing else may be.
        let fm = FileManager.default
        let withDevice = ((try? fm.contentsOfDirectory(atPath: "/sys/class/tty")) ?? []).filter {
            fm.fileExists(atPath: "/sys/class/tty/\($0)/device/driver")
        }
        let real = withDevice.filter {
            (try? fm.destinationOfSymbolicLink(atPath: "/sys/class/tty/\($0)/device/driver"))?.hasSuffix("/serial8250") != true
        }
        #expect(Set(real.map { "/dev/\($0)" }).isSubset(of: listed), "sysfs has \(real), ports --all listed \(listed)")
        #expect(listed.isSubset(of: Set(withDevice.map { "/dev/\($0)" })), "listed \(listed), sysfs \(withDevice)")
    }

    /// Core Haptics' single tap plays: its felt length (30 ms on the ERM, 8 frames), after the warm-up.
    @Test func aLoneTapPlays() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tap-\(UUID().uuidString).ahap").path
        try #"{"Pattern":[{"Event":{"Time":0,"EventType":"HapticTransient"}}]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for (extra, frames) in [([] as [String], 75 + 8), (["--no-warmup"], 8)] {
            let r = try runMotorbreath(["--simulate", "--virtual-time", "--quiet", "--json", "--ahap", path] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            let json = try jsonObject(r.stdout)
            #expect(json["frames_played"] as? Int == frames, "\(extra)")
            #expect(json["motor_off_at_exit"] as? Bool == true)
        }
    }

    @Test func simulatedPlayPrintsAJSONReportWithTheMotorOff() throws {
        let r = try runMotorbreath(["--simulate", "--pattern", "0.5-0.2-0.5", "--json", "--quiet", "--no-warmup"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["frames_sent"] as? Int == 300)
        #expect(json["frames_played"] as? Int == 300)
        #expect(json["underruns"] as? Int == 0)
        #expect(json["motor_off_at_exit"] as? Bool == true)
    }
}

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct ProbeTests {
    @Test func probeTellsABoardFromAnEcho() throws {
        let board = try SimBoardProcess()
        defer { _ = board.stop() }
        let echo = try SimBoardProcess(echo: true)
        defer { _ = echo.stop() }
        // The library call behind `ports --probe` and `--port auto`.
        guard case .board(let info) = BoardProbe.probe(path: board.ptyPath) else {
            Issue.record("the simulated board did not answer HELLO")
            return
        }
        #expect(info.motorKind == .erm)
        if case .board = BoardProbe.probe(path: echo.ptyPath, timeoutMs: 600) { Issue.record("an echo answered as a board") }
        // And the command line on a port where no board answers.
        let r = try runMotorbreath(["--port", echo.ptyPath, "--quiet"], timeout: 30)
        #expect(r.status != 0)
        #expect(r.stderr.contains("no motorbreath board answered on \(echo.ptyPath)"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
    }
}
