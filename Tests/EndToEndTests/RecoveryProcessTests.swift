// Recovery with real processes and real ptys (an in-memory link cannot hold a lock or vanish): a board
// whose failsafe fires mid-breath, a board process killed and started again at the same path, a board
// that vanishes for good, and a machine under CPU load. The breath must resume at its phase: checked on
// the boards' own drive logs against a render of the same pattern, through the boards' clock origins.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct RecoveryProcessTests {
    let pattern = ["--pattern", "2-1-3", "--cycles", "2"]

    /// The drive levels of `pattern` as `play` renders them for the simulated ERM board (i16 with braking,
    /// compensated, 0.3 s warm-up): the breath's intended output, frame by frame.
    func renderedLevels() throws -> [Int] {
        var options = BreathOptions()
        options.length = .cycles(2)
        let plan = BreathPlan(pattern: try BreathPattern.parse("2-1-3"), options: options)
        var renderer = FrameRenderer(plan: plan, frameRate: 250, resolution: .i16, warmup: 0.3)
        var raw: [UInt16] = []
        renderer.render(count: renderer.frameCount, into: &raw)
        return raw.map { Int(Int16(bitPattern: $0)) }
    }

    /// Drive changes (on the host's CLOCK_MONOTONIC) that match the frame the breath is at by then: for each
    /// change, the rendered duty of the frame at (time - start), or of a neighbour (a change lands on a frame
    /// edge). Returns the fraction that match.
    func fractionAtPhase(_ changes: [(ns: UInt64, level: Int16)], start: UInt64, duties: [Int]) -> Double {
        guard !changes.isEmpty else { return 0 }
        let matched = changes.filter { c in
            let frame = Int((Double(c.ns) - Double(start)) * 250 / 1e9)
            return (frame - 1...frame + 1).contains { i in
                i >= 0 && i < duties.count && duties[i] == Int(c.level)
            }
        }
        return Double(matched.count) / Double(changes.count)
    }

    /// Board time in host ns, and the breath's start: the first drive change is frame 0 (the warm-up kick).
    func onHostClock(_ d: DriveRecord) -> [(ns: UInt64, level: Int16)] {
        d.changes.map { (d.monotonicNs(atTick: $0.tick), $0.level) }
    }

    @Test func aFailsafeMidBreathIsRecoveredAndTheBreathResumesAtItsPhase() throws {
        let board = try SimBoardProcess(arguments: ["--deaf-after", "2", "--deaf-ms", "300"])
        defer { board.kill() }
        let result = try runMotorbreath(pattern + ["--json", "--quiet", "--port", board.ptyPath], timeout: 90)
        let drive = board.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let report = try jsonObject(result.stdout)
        #expect(drive.failsafeTrips == 1)  // the board's own count: the failsafe really fired
        #expect(report["failsafe_trips"] as? Int == 1)
        #expect((report["reconnects"] as? Int ?? 0) >= 1)
        #expect(report["motor_off_at_exit"] as? Bool == true)
        #expect(report["error"] == nil)

        let duties = try renderedLevels()
        let changes = onHostClock(drive)
        let start = try #require(changes.first { $0.level != 0 }).ns
        let gapEnd = start + 2_600_000_000  // deaf from 2.0 s to 2.3 s after START, then re-prepared
        let after = changes.filter { $0.ns > gapEnd }
        #expect(after.count > 100)
        let atPhase = fractionAtPhase(after, start: start, duties: duties)
        #expect(atPhase > 0.95, "only \(atPhase) of the drive changes after the recovery match the breath at that time")
    }

    @Test func aBoardKilledAndStartedAgainAtTheSamePathIsReconnected() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mb-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("board").path
        let first = try SimBoardProcess(arguments: ["--link", path])
        defer { first.kill() }
        let host = try RunningMotorbreath(pattern + ["--json", "--quiet", "--port", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        usleep(3_000_000)
        first.kill()
        let before = first.record
        usleep(800_000)
        let second = try SimBoardProcess(arguments: ["--link", path])
        defer { second.kill() }
        let result = host.finish(timeout: 60)
        let after = second.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let report = try jsonObject(result.stdout)
        #expect((report["reconnects"] as? Int ?? 0) >= 1)
        #expect(report["motor_off_at_exit"] as? Bool == true)

        // Two boards, two clocks: both map to CLOCK_MONOTONIC through their logged origins.
        let duties = try renderedLevels()
        let start = try #require(onHostClock(before).first { $0.level != 0 }).ns
        let resumed = onHostClock(after)
        #expect(resumed.count > 100)
        let atPhase = fractionAtPhase(resumed, start: start, duties: duties)
        #expect(atPhase > 0.95, "only \(atPhase) of the second board's drive changes match the breath at that time")
    }

    @Test func aBoardThatVanishesForGoodIsOneLineAndExit1() throws {
        var rng = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0..<1_000_000, using: &rng)
        var state = seed
        for run in 0..<2 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let delayMs = 500 + Int(state >> 33) % 4500
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mb-gone-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let path = dir.appendingPathComponent("board").path
            let board = try SimBoardProcess(arguments: ["--link", path])
            defer { board.kill() }
            let host = try RunningMotorbreath(["--pattern", "4-7-8", "--json", "--quiet", "--port", path])
            usleep(UInt32(delayMs) * 1000)
            board.kill()
            try? FileManager.default.removeItem(atPath: path)
            let result = host.finish(timeout: 60)
            let context = "seed \(seed), run \(run), board killed after \(delayMs) ms"
            #expect(result.status == 1, "\(context): \(result.stderr)")  // an exit, not a crash (SIGILL was 132)
            let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("motorbreath:") }
            #expect(lines.count == 1, "\(context): \(result.stderr)")
            let report = try jsonObject(result.stdout)
            #expect((report["error"] as? String)?.contains("come back") == true, "\(context)")
        }
    }

    @Test func cpuLoadOnEveryCoreDoesNotTripTheFailsafe() throws {
        // Four busy loops on a 2-core machine for the whole breath (no other real-time test meanwhile).
        let gate = RealTimeGate(exclusive: true)
        defer { gate.release() }
        let load = try BusyLoops(count: 4)
        defer { load.stop() }
        let board = try SimBoardProcess(gated: false)
        defer { board.kill() }
        let result = try runMotorbreath(pattern + ["--json", "--quiet", "--port", board.ptyPath], timeout: 90)
        try expectKeptFed(result, board.stop(), "under load")
    }
}

extension RecoveryProcessTests {
    /// The shortest failsafe the command line takes (20 ms) is kept fed for a whole breath: the host's
    /// heartbeat scales to a quarter of it. Before, with a 50 ms heartbeat and CLOCK requests every 20 ms, the
    /// board's failsafe fired 7 times in 8 s. The oracle is the board process's own trip count.
    @Test func theShortestFailsafeIsKeptFed() throws {
        let board = try SimBoardProcess()
        defer { board.kill() }
        let result = try runMotorbreath(["--pattern", "2-0-2-0", "--cycles", "2", "--failsafe-ms", "20",
                                         "--json", "--quiet", "--port", board.ptyPath], timeout: 60)
        try expectKeptFed(result, board.stop(), "failsafe 20 ms")
    }

    /// The session ended well, the board's failsafe never fired (its own count) and the host never had to
    /// reconnect; prints the host's longest silence.
    func expectKeptFed(_ result: RunResult, _ drive: DriveRecord, _ label: String) throws {
        #expect(result.status == 0, "\(result.stderr)")
        let report = try jsonObject(result.stdout)
        print("\(label): host longest silence \(report["host_longest_silence_ms"] ?? "?") ms, board trips \(drive.failsafeTrips.map(String.init) ?? "?")")
        #expect(drive.failsafeTrips == 0)
        #expect(report["reconnects"] as? Int == 0, "\(report["reconnect_reasons"] ?? "")")
    }
}
