// Fast changes answered in the client's own terms (issue 44): a burst of intensity commands over the
// control socket to a looping breath on a sim-board process; every `applied` names its own command's
// `value` (and `effective` is base x value), each id answered at most once, none for a change never made.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(3))) struct ControlBurstValueTests {
    /// 5 bursts of 40 commands 0-6 ms apart (every other with an id) at strength 0.8. Before the fix, 103 of
    /// 108 applied events named a later command's value.
    @Test func eachAppliedNamesItsOwnValue() throws {
        let board = try SimBoardProcess()
        defer { board.kill() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mb-burst-\(getpid()).sock").path
        let host = try RunningMotorbreath(["--port", board.ptyPath, "--pattern", "2-1-2-1", "--loop", "--strength", "0.8", "--quiet",
                                           "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        var events = client.events(until: { $0["event"] as? String == "phase" }, timeout: 20)
        var sent: [String: Double] = [:]
        var k = 0
        for _ in 0..<5 {
            for i in 0..<40 {
                k += 1
                let value = ((0.3 + 0.7 * Double((k * 37) % 100) / 100) * 1000).rounded() / 1000
                let id = k % 2 == 1 ? #","id":"c\#(k)""# : ""
                if k % 2 == 1 { sent["c\(k)"] = value }
                client.send(#"{"command":"intensity","value":\#(value)\#(id)}"#)
                usleep(UInt32(2_000 * (i % 4)))
            }
            usleep(1_000_000)
        }
        client.send(#"{"command":"state","id":"end"}"#)
        events += client.events(until: { $0["id"] as? String == "end" }, timeout: 10)
        client.send(#"{"command":"stop"}"#)
        _ = host.finish(timeout: 20)
        _ = board.stop()
        let applied = events.filter { $0["event"] as? String == "applied" && $0["command"] as? String == "intensity" }
        let errors = events.filter { $0["event"] as? String == "error" }
        #expect(applied.count >= 20 && errors.isEmpty, "\(applied.count) applied, errors \(errors.prefix(2))")
        print("burst: \(k) sent, \(applied.count) applied, \(applied.filter { $0["id"] != nil }.count) with ids")
        for e in applied {
            let value = e["value"] as? Double ?? -1, effective = e["effective"] as? Double ?? -1
            #expect(abs(effective - 0.8 * value) < 1e-9, "\(e)")
            if let id = e["id"] as? String { #expect(sent[id] == value, "\(e)") }
        }
        let ids = applied.compactMap { $0["id"] as? String }
        #expect(Set(ids).count == ids.count, "an id answered twice: \(ids)")
    }
}
