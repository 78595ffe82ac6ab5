// Another program reading the board's pty without a lock: motorbreath names it and refuses, instead of
// playing while that program takes the board's replies; the board's own side of the pty does not count.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct PortHolderTests {
    @Test func aProgramHoldingThePortIsNamedAndThePlayRefused() throws {
        let board = try SimBoardProcess()
        defer { _ = board.stop() }
        let play = ["--port", board.ptyPath, "--pattern", "0.5-0-0.5", "--quiet", "--json", "--no-warmup"]
        // The board holds the pty's master and a slave descriptor of its own: not another program.
        let alone = try runMotorbreath(play, timeout: 60)
        #expect(alone.status == 0, "\(alone.stderr)")

        // `sleep` with the port as its standard input: a program that opened it and holds it, like cat.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "exec sleep 60 < \(board.ptyPath)"]
        try holder.run()
        // SIGKILL: a child of the test runner may inherit SIGTERM blocked.
        defer {
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        // Wait until the shell has opened the port and become sleep.
        for _ in 0..<200 where (try? String(contentsOfFile: "/proc/\(holder.processIdentifier)/comm", encoding: .utf8)) != "sleep\n" {
            usleep(10_000)
        }
        let r = try runMotorbreath(play, timeout: 60)
        #expect(r.status == 1)
        #expect(r.stderr == "motorbreath: \(board.ptyPath) is open in another program (sleep, pid \(holder.processIdentifier)), which would take the board's replies: close it first\n")
        // --json reports the failure too (a report with its error), and nothing was played.
        #expect(try jsonObject(r.stdout)["frames_played"] as? Int == 0)

        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(try runMotorbreath(play, timeout: 60).status == 0)
    }
}

/// socat as the other side of a pty: its `SYSTEM:` child inherits socat's own descriptor of the port and
/// is no other user of it; a child that opens the port itself is one.
@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(3))) struct InheritedDescriptorTests {
    /// `socat PTY,link=L,rawer SYSTEM:COMMAND` in the background, and the link once it is there.
    func socat(_ command: String, in dir: URL) throws -> (Process, String) {
        let link = dir.appendingPathComponent("pty").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/socat")
        p.arguments = ["PTY,link=\(link),rawer", "SYSTEM:\(command)"]
        try p.run()
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: link) { usleep(10_000) }
        usleep(200_000)  // the SYSTEM child started (its sh and command)
        return (p, link)
    }

    func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mb-socat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aLoopbackThroughSocatsCatWorks() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (socat, link) = try socat("cat", in: dir)
        defer { kill(socat.processIdentifier, SIGKILL); socat.waitUntilExit() }
        let r = try runMotorbreath(["selftest", "--loopback", "--port", link, "--seconds", "0.3", "--json"], timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect((json["bytes"] as? Int ?? 0) > 1000)
        #expect(json["mismatched_bytes"] as? Int == 0 && json["missing_bytes"] as? Int == 0)
    }

    @Test func socatsChildThatOpensThePortItselfIsNamed() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("pty").path
        let (socat, _) = try socat("exec sleep 60 < \(link)", in: dir)
        defer { kill(socat.processIdentifier, SIGKILL); socat.waitUntilExit() }
        let r = try runMotorbreath(["selftest", "--loopback", "--port", link, "--seconds", "0.3"], timeout: 30)
        // The named sleep outlives socat (and would hold the test until it ends): it goes too.
        let named = r.stderr.split(separator: "pid ").last.flatMap { Int32($0.prefix { $0.isNumber }) }
        if let named { kill(named, SIGKILL) }
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("motorbreath: \(link) is open in another program (sleep, pid "), "\(r.stderr)")
    }
}
