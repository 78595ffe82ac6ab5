// One board of two fails as a user's would: two `sim-board` processes behind stable `--link` paths, one
// `motorbreath --port A --port B`; board B's process is killed mid-breath and started again at the same
// path (it must rejoin at the breath's phase while A never stops), or never comes back (only B's part
// ends; with --all-or-nothing both stop). Judged from both drive logs on the machine's monotonic clock
// (each log names its board clock's origin) against a render of the breath, never from the host's events.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(6))) struct RejoinProcessTests {
    static let cycles = 3
    let pattern = ["--pattern", "2-1-3", "--cycles", "\(Self.cycles)", "--json", "--quiet"]

    /// The drive levels of the breath as `play` renders them for the simulated ERM board (i16 with braking,
    /// compensated, 0.3 s warm-up): frame by frame, at 250 Hz.
    func renderedLevels() throws -> [Int] {
        var options = BreathOptions()
        options.length = .cycles(Self.cycles)
        let plan = BreathPlan(pattern: try BreathPattern.parse("2-1-3"), options: options)
        var renderer = FrameRenderer(plan: plan, frameRate: 250, resolution: .i16, warmup: 0.3)
        var raw: [UInt16] = []
        renderer.render(count: renderer.frameCount, into: &raw)
        return raw.map { Int(Int16(bitPattern: $0)) }
    }

    /// A board's drive changes on CLOCK_MONOTONIC, from the first that drives (the breath's frame 0, or
    /// the first frame after a rejoin) to the off after the last (the off at boot and the final STOP's are
    /// the board's own).
    func breath(_ d: DriveRecord) -> [(ns: UInt64, level: Int16)] {
        let c = d.changes.map { (ns: d.monotonicNs(atTick: $0.tick), level: $0.level) }
        guard let first = c.firstIndex(where: { $0.level != 0 }), let last = c.lastIndex(where: { $0.level != 0 }) else { return [] }
        return Array(c[first...min(last + 1, c.count - 1)])
    }

    /// The fraction of `changes` whose level is the rendered frame's at (time - start), within one frame.
    func fractionAtPhase(_ changes: [(ns: UInt64, level: Int16)], start: UInt64, duties: [Int]) -> Double {
        guard !changes.isEmpty else { return 0 }
        let matched = changes.filter { c in
            let frame = Int((Double(c.ns) - Double(start)) * 250 / 1e9)
            return (frame - 1...frame + 1).contains { i in i >= 0 && i < duties.count && duties[i] == Int(c.level) }
        }
        return Double(matched.count) / Double(changes.count)
    }

    /// Two board processes at `dir/a` and `dir/b`, and the host playing on both.
    struct Rig {
        let dir: URL
        var a: String { dir.appendingPathComponent("a").path }
        var b: String { dir.appendingPathComponent("b").path }
        init() throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("mb-rejoin-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        }
        func remove() { try? FileManager.default.removeItem(at: dir) }
    }

    /// Waits (up to 30 s) until `board` drives its motor: the breath has begun on it.
    func waitForBreath(_ board: SimBoardProcess) {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && !board.record.changes.contains(where: { $0.level != 0 }) { usleep(50_000) }
    }

    func reports(_ stdout: String) throws -> [String: [String: Any]] {
        let json = try jsonObject(stdout)
        var byName: [String: [String: Any]] = [:]
        for b in json["boards"] as? [[String: Any]] ?? [] {
            if let name = b["name"] as? String { byName[name] = b["report"] as? [String: Any] ?? [:] }
        }
        return byName
    }

    @Test func boardBKilledAndStartedAgainRejoinsAtThePhaseWhileANeverStops() throws {
        let rig = try Rig()
        defer { rig.remove() }
        let a = try SimBoardProcess(arguments: ["--link", rig.a])
        defer { a.kill() }
        let b1 = try SimBoardProcess(arguments: ["--link", rig.b])
        defer { b1.kill() }
        let host = try RunningMotorbreath(pattern + ["--port", rig.a, "--port", rig.b])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        waitForBreath(b1)
        usleep(3_000_000)  // mid-breath: 3 s in, of 18.3 s
        b1.kill()
        let before = b1.record
        usleep(1_000_000)
        let b2 = try SimBoardProcess(arguments: ["--link", rig.b])
        defer { b2.kill() }
        let result = host.finish(timeout: 90)
        let left = a.stop(), after = b2.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let boards = try reports(result.stdout)
        let ra = boards["a"] ?? [:], rb = boards["b"] ?? [:]
        #expect(ra["reconnects"] as? Int == 0 && ra["error"] == nil, "a: \(ra)")
        #expect(ra["frames_played"] as? Int == ra["frames_total"] as? Int, "a: \(ra)")
        #expect((rb["reconnects"] as? Int ?? 0) >= 1 && rb["error"] == nil, "b: \(rb)")

        let duties = try renderedLevels()
        let la = breath(left), lb1 = breath(before), lb2 = breath(after)
        let start = try #require(la.first).ns  // frame 0 (the warm-up kick) on A's pin
        // B's outage on its own pins: its last change before the kill, its first after the restart.
        let lost = try #require(before.changes.last.map { before.monotonicNs(atTick: $0.tick) })
        let back = try #require(lb2.first).ns
        let rejoinFrame = Int((Double(back) - Double(start)) * 250 / 1e9)
        print("rejoin (two processes): b silent \(Double(back - lost) / 1e6) ms (killed 1 s), rejoined at frame \(rejoinFrame) of \(duties.count); \(lb1.count) changes before, \(lb2.count) after")
        #expect(lb1.count > 100 && lb2.count > 100)
        #expect(rejoinFrame > 4 * 250, "b rejoined at frame \(rejoinFrame): the breath started again?")

        // A never stops: every change the render makes while B is away is on A's pin at its time.
        let outage = duties.indices.dropFirst().filter { i in
            duties[i] != duties[i - 1] && start + UInt64(i) * 4_000_000 > lost && start + UInt64(i) * 4_000_000 < back + 500_000_000
        }
        let onA = outage.filter { i in
            let at = start + UInt64(i) * 4_000_000
            return la.contains { abs(Double($0.ns) - Double(at)) <= 4_000_000 && Int($0.level) == duties[i] }
        }
        print("rejoin (two processes): a drove \(onA.count) of the render's \(outage.count) changes during b's outage")
        #expect(outage.count > 50 && Double(onA.count) >= 0.99 * Double(outage.count), "a: \(onA.count) of \(outage.count)")
        // And no silence on A's pin longer than the render's own between its changes over the outage.
        func longestGap(_ instants: [UInt64]) -> Double {
            zip(instants, instants.dropFirst()).map { Double($1) - Double($0) }.max() ?? 0
        }
        // (The render's instants over the window widened by two frames each side: a change just outside it
        // by a few µs on A's pin would otherwise cut the render's gap and not A's, or the other way round.)
        let window = lost...(back + 500_000_000)
        let renderGap = longestGap(duties.indices.dropFirst().filter { duties[$0] != duties[$0 - 1] }
            .map { start + UInt64($0) * 4_000_000 }.filter { $0 + 8_000_000 >= lost && $0 <= back + 508_000_000 })
        let aGap = longestGap(la.map(\.ns).filter { window.contains($0) })
        print("rejoin (two processes): longest silence on a's pin during b's outage \(aGap / 1e6) ms, the render's \(renderGap / 1e6) ms")
        #expect(aGap <= renderGap + 8_000_000, "a fell silent \(aGap / 1e6) ms")
        #expect(fractionAtPhase(la, start: start, duties: duties) >= 0.99)

        // B after the restart: at the breath's phase, and in step with A.
        let atPhase = fractionAtPhase(lb2, start: start, duties: duties)
        #expect(atPhase >= 0.99, "only \(atPhase) of b's changes after the restart match the breath at that time")
        var skews: [Double] = []
        for c in lb2 {
            let near = la.filter { $0.level == c.level && abs(Double($0.ns) - Double(c.ns)) <= 4_000_000 }
            if let d = near.map({ abs(Double($0.ns) - Double(c.ns)) / 1000 }).min() { skews.append(d) }
        }
        skews.sort()
        func q(_ p: Double) -> Double { skews.isEmpty ? .infinity : skews[Int(Double(skews.count - 1) * p)] }
        print("rejoin (two processes): b after rejoining, \(skews.count) of \(lb2.count) changes matched on a: skew p50 \(q(0.5)) p95 \(q(0.95)) max \(skews.last ?? 0) µs")
        #expect(Double(skews.count) >= 0.99 * Double(lb2.count))
        #expect(q(0.95) <= 1000, "skew p95 \(q(0.95)) µs")
    }

    /// Kills board B for good (its link path removed, so a reopen finds nothing), `afterS` into its breath.
    func runWithBGone(_ extra: [String]) throws -> (result: RunResult, a: DriveRecord, lostNs: UInt64) {
        let rig = try Rig()
        defer { rig.remove() }
        let a = try SimBoardProcess(arguments: ["--link", rig.a])
        defer { a.kill() }
        let b = try SimBoardProcess(arguments: ["--link", rig.b])
        defer { b.kill() }
        let host = try RunningMotorbreath(pattern + extra + ["--port", rig.a, "--port", rig.b])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        waitForBreath(b)
        usleep(2_000_000)
        b.kill()
        try? FileManager.default.removeItem(atPath: rig.b)
        let gone = b.record
        let lost = gone.changes.last.map { gone.monotonicNs(atTick: $0.tick) } ?? 0
        let result = host.finish(timeout: 90)
        return (result, a.stop(), lost)
    }

    @Test func boardBNeverComingBackEndsOnlyItsPart() throws {
        let (result, a, _) = try runWithBGone([])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("motorbreath:") }
        #expect(lines.count == 1 && lines.first?.contains("board b") == true, "\(result.stderr)")
        let boards = try reports(result.stdout)
        let ra = boards["a"] ?? [:], rb = boards["b"] ?? [:]
        #expect((rb["error"] as? String)?.contains("come back") == true, "b: \(rb)")
        // Its port vanished: the line says so, without the first run's hint to try --simulate.
        #expect((rb["error"] as? String)?.contains("is gone)") == true && (rb["error"] as? String)?.contains("--simulate") == false, "b: \(rb)")
        #expect(ra["error"] == nil && ra["reconnects"] as? Int == 0, "a: \(ra)")
        #expect(ra["frames_played"] as? Int == ra["frames_total"] as? Int, "a: \(ra)")
        // A's pin played the whole breath: its last drive change is the end of the render.
        let duties = try renderedLevels()
        let la = breath(a)
        let start = try #require(la.first).ns
        let end = try #require(la.last).ns
        let played = (Double(end) - Double(start)) / 4e6
        #expect(abs(played - Double(duties.count)) <= 3, "a's breath ended at frame \(played) of \(duties.count)")
        #expect(fractionAtPhase(la, start: start, duties: duties) >= 0.99)
    }

    @Test func allOrNothingStopsBothMotorsSoonAfterBDies() throws {
        let (result, a, lost) = try runWithBGone(["--all-or-nothing"])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("motorbreath:") }
        #expect(lines.count == 1 && lines.first?.contains("board b") == true && lines.first?.contains("all-or-nothing") == true, "\(result.stderr)")
        let boards = try reports(result.stdout)
        #expect((boards["a"]?["error"] as? String)?.contains("board b failed") == true, "\(boards["a"] ?? [:])")
        #expect(boards["a"]?["motor_off_at_exit"] as? Bool == true)
        // A's motor is off, stopped long before the breath's end: within the reconnect attempts' few seconds
        // (20 reopens 250 ms apart) of B's death.
        let duties = try renderedLevels()
        let la = breath(a)
        let start = try #require(la.first).ns
        let off = try #require(a.changes.last)
        #expect(off.level == 0, "a's pin ends at \(off.level)")
        let offNs = a.monotonicNs(atTick: off.tick)
        print("all or nothing: a's motor off \(Double(offNs) / 1e6 - Double(lost) / 1e6) ms after b's last drive change, frame \((Double(offNs) - Double(start)) / 4e6) of \(duties.count)")
        #expect(offNs > lost && offNs < lost + 10_000_000_000)
        #expect((Double(offNs) - Double(start)) / 4e6 < Double(duties.count) - 250)
    }
}
