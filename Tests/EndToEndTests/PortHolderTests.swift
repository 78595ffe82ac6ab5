// Another program reading the board's pty without a lock: motorbreath names it and refuses, instead of
// playing while that program takes the board's replies; the board's own side of the pty does not count.

import Foundation
import Glibc
import TestSupport
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct PortHolderTests {
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
