// Every command that touches a board (or blocks on a file) ends within a second of Ctrl-C or SIGTERM, with
// 128 + the signal, its motors off: one signal path for all of them (Playback's StopSignal). Real
// processes, real signals; where a sim-board process is the board, its drive log is the oracle that the
// motor ended off. Four commands at a time: each has its own board and its own signal, and most of a run is
// the 2 s wait before the signal.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Synchronization
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct EveryCommandSignalTests {
    /// A command line; `PTY` stands for a sim-board process's port, `FIFO` for a FIFO nobody reads.
    static let commands: [(name: String, arguments: [String])] = [
        ("play one board", ["--simulate", "--pattern", "4-0-4", "--quiet"]),
        ("play on a port", ["--port", "PTY", "--pattern", "4-0-4", "--quiet"]),
        ("play three boards", ["--board", "a=sim", "--board", "b=sim", "--board", "c=sim", "--pattern", "4-0-4", "--quiet"]),
        ("play a port and a simulated board", ["--board", "a=PTY", "--board", "b=sim", "--pattern", "4-0-4", "--quiet"]),
        ("serve", ["serve", "--simulate", "--http-port", "0"]),
        ("palette", ["palette", "--port", "PTY"]),
        ("calibrate", ["calibrate", "--port", "PTY", "--no-save"]),
        ("bench", ["bench", "--port", "PTY"]),
        ("conform", ["conform", "--port", "PTY"]),
        ("latency", ["latency", "--port", "PTY", "--changes", "30"]),
        ("sim-board with a FIFO drive log", ["sim-board", "--drive-log", "FIFO"]),
        ("render to a FIFO", ["render", "--pattern", "4-7-8", "-o", "FIFO"]),
    ]

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func everyCommandEndsWithinASecond(signal: Int32, status: Int32) throws {
        let failures = Mutex<[String]>([])
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        for command in Self.commands {
            queue.addOperation {
                let problem: String?
                do { problem = try run(command.arguments, signal: signal, status: status) } catch { problem = "\(error)" }
                if let problem { failures.withLock { $0.append("\(command.name): \(problem)") } }
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        let all = failures.withLock { $0 }
        #expect(all.isEmpty, "\(all.joined(separator: "\n"))")
    }

    /// Starts `arguments`, signals it after 2 s, and says what went wrong (nil: it exited within 1 s with
    /// `status`, and a sim-board it played on ended with its motor off, stopped by the host).
    func run(_ arguments: [String], signal: Int32, status: Int32) throws -> String? {
        let board = arguments.contains { $0.hasSuffix("PTY") } ? try SimBoardProcess() : nil
        defer { board?.kill() }
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)").path
        defer { unlink(fifo) }
        if arguments.contains("FIFO"), mkfifo(fifo, 0o600) != 0 { return "mkfifo failed: errno \(errno)" }
        let resolved = arguments.map { a in
            if a == "FIFO" { return fifo }
            guard let board, a.hasSuffix("PTY") else { return a }
            return String(a.dropLast(3)) + board.ptyPath
        }
        let host = try RunningMotorbreath(resolved, silentInput: true)
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        usleep(2_000_000)
        guard host.process.isRunning else {
            let r = host.finish(timeout: 1)
            return "ended by itself before the signal (\(r.status)): \(r.stderr.suffix(300))"
        }
        kill(host.process.processIdentifier, signal)
        let sent = Date()
        while host.process.isRunning && Date().timeIntervalSince(sent) < 1.0 { usleep(5_000) }
        let took = Date().timeIntervalSince(sent)
        if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) }  // a latched signal would ignore SIGTERM too
        let result = host.finish(timeout: 5)
        if took >= 1.0 { return "still running 1 s after the signal" }
        if result.status != status { return "exit \(result.status), not \(status): \(result.stderr.suffix(300))" }
        if let board {
            let drive = board.stop()
            // Off, and by a message: the failsafe would turn it off a failsafe period after the last one.
            if drive.changes.last.map({ $0.level != 0 }) ?? false { return "the board's motor was left on" }
            if let off = drive.lastOff, let heard = drive.lastRxTick, off > heard + 20_000 {
                return "the motor went off \((off - heard) / 1000) ms after the host's last message: the failsafe, not a STOP"
            }
        }
        return nil
    }
}
