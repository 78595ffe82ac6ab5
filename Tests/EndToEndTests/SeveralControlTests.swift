// A program steering several boards in step through the control socket: `prepared` names each board, a
// strength for one board (`"board"` on `intensity`) is answered by that board's `applied`, phases come once
// (the first board's), and the end is `finished` with every board's report. Judged on both boards' drive
// logs: after the change the named board drives weaker than the other, which is unchanged.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(5))) struct SeveralControlTests {
    @Test func oneBoardsStrengthChangesOnThatBoardAlone() throws {
        let gate = RealTimeGate()
        defer { gate.release() }
        let pair = try TwoSimBoards()
        defer { pair.kill() }
        let a = pair.left, b = pair.right
        let path = controlSocketPath("several")
        let host = try RunningMotorbreath(pair.layout + ["--pattern", "2-0-2",
                                           "--cycles", "3", "--quiet", "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        var events = client.events(until: { $0["event"] as? String == "phase" })  // prepared, state, the first inhale
        let prepared = try #require(events.first { $0["event"] as? String == "prepared" })
        #expect((prepared["boards"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["left", "right"])
        client.send(#"{"command":"intensity","value":0.4,"board":"right","id":"soft"}"#)
        client.send(#"{"command":"intensity","value":0.4,"board":"middle","id":"nowhere"}"#)
        events += client.events(until: { $0["event"] as? String == "applied" && $0["id"] as? String == "soft" })
        client.send(#"{"command":"state","id":"st"}"#)
        events += client.events(until: { $0["event"] as? String == "finished" }, timeout: 60)
        let result = host.finish(timeout: 30)
        let left = a.stop(), right = b.stop()
        #expect(result.status == 0, "\(result.stderr)")

        let applied = try #require(events.first { $0["event"] as? String == "applied" && $0["id"] as? String == "soft" })
        #expect(applied["board"] as? String == "right" && applied["value"] as? Double == 0.4 && applied["effective"] as? Double == 0.4)
        #expect(events.filter { $0["event"] as? String == "applied" }.count == 1)
        #expect(events.contains { $0["event"] as? String == "error" && $0["id"] as? String == "nowhere"
                && $0["message"] as? String == "intensity: \"board\" must be one of the boards: left, right" })
        let state = try #require(events.first { $0["event"] as? String == "state" && $0["id"] as? String == "st" })
        #expect((state["boards"] as? [[String: Any]])?.map { $0["strength"] as? Double } == [1, 0.4])
        // Phases once each: the first board's stand for both.
        let phases = events.filter { $0["event"] as? String == "phase" }.map { "\($0["cycle"] ?? 0) \($0["phase"] ?? "")" }
        #expect(phases == ["1 inhale", "1 exhale", "2 inhale", "2 exhale", "3 inhale", "3 exhale"])
        let finished = try #require(events.last)
        let boards = (finished["report"] as? [String: Any])?["boards"] as? [[String: Any]] ?? []
        #expect(finished["event"] as? String == "finished" && boards.compactMap { $0["name"] as? String } == ["left", "right"])

        // The drive logs: the strongest drive of cycles 2 and 3 (after the change) on each board.
        func peak(_ d: DriveRecord, after tick: UInt64) -> Int { d.changes.filter { $0.tick >= tick }.map { Int($0.level) }.max() ?? 0 }
        func cycle2(_ d: DriveRecord) throws -> UInt64 {  // the warm-up's 0.3 s and cycle 1's 4 s after the first drive
            try #require(d.changes.first { $0.level != 0 }).tick + UInt64(4.3 * Double(d.clockHz))
        }
        let cycle2L = try cycle2(left), cycle2R = try cycle2(right)
        let l = peak(left, after: cycle2L), r = peak(right, after: cycle2R)
        print("one board's strength to 0.4 through the socket: peak drive of cycles 2-3: left \(l), right \(r) (ratio \(Double(r) / Double(max(l, 1))))")
        #expect(l > 20_000, "the left board's peak \(l) changed")
        #expect(abs(Double(r) / Double(l) - 0.4) < 0.05, "right \(r) against left \(l)")
    }
}

/// The first board gone for good mid-breath: the next one speaks for both, so a program keeps getting the
/// breath's phases, and the end names the board that failed.
@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(5))) struct SeveralControlLeadTests {
    @Test func theFirstBoardGoneTheNextOneSpeaksForBoth() throws {
        let gate = RealTimeGate()
        defer { gate.release() }
        let pair = try TwoSimBoards()
        defer { pair.kill() }
        let a = pair.left, b = pair.right
        let path = controlSocketPath("lead")
        let host = try RunningMotorbreath(pair.layout + ["--pattern", "2-0-2",
                                           "--cycles", "5", "--quiet", "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        var events = client.events(until: { $0["event"] as? String == "phase" })
        a.kill()  // the left board's process, for good
        events += client.events(until: { ["finished", "error"].contains($0["event"] as? String ?? "") && $0["report"] != nil }, timeout: 60)
        let result = host.finish(timeout: 30)
        let right = b.stop()
        #expect(result.status == 1, "\(result.stderr)")
        let phases = events.filter { $0["event"] as? String == "phase" }.map { "\($0["cycle"] ?? 0) \($0["phase"] ?? "")" }
        print("left gone after the first phase: phases the program got: \(phases)")
        // Left is given up after its reconnect attempts (about 5 s); from then on right's phases come.
        #expect(phases.contains("4 inhale") && phases.contains("5 exhale"), "phases \(phases)")
        #expect(Set(phases).count == phases.count, "a phase twice: \(phases)")
        let last = try #require(events.last)
        #expect(last["event"] as? String == "error" && (last["message"] as? String)?.hasPrefix("board left") == true, "\(last)")
        let boards = (last["report"] as? [String: Any])?["boards"] as? [[String: Any]] ?? []
        let r = boards.first { $0["name"] as? String == "right" }?["report"] as? [String: Any] ?? [:]
        #expect(r["error"] == nil && r["frames_played"] as? Int == r["frames_total"] as? Int, "right: \(r)")
        #expect(right.changes.last?.level == 0)
    }
}
