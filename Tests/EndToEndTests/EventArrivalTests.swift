// Events arrive after what they report, before and after a pause: a `phase` or `applied` event names the
// board tick at which its frame reached the motor, and a client reads it only once that tick has passed.
// Real processes; the oracle is the simulated board process's clock (its drive log gives the origin:
// tick -> CLOCK_MONOTONIC), against the instant the client read each event.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(5))) struct EventArrivalTests {
    func monotonicNs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    @Test func eventsArriveAfterTheirTickAlsoAfterAPause() throws {
        let board = try SimBoardProcess()
        defer { board.kill() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mb-arr-\(getpid()).sock").path
        let host = try RunningMotorbreath(["--port", board.ptyPath, "--pattern", "1-0-1", "--cycles", "8", "--quiet", "--control-socket", path])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        var arrivals: [(readNs: UInt64, event: [String: Any])] = []
        func collect(until stop: ([String: Any]) -> Bool, timeout: Double = 20) {
            let deadline = Date().addingTimeInterval(timeout)
            while let line = client.readLine(timeout: max(0.1, deadline.timeIntervalSinceNow)) {
                let at = monotonicNs()
                guard let e = try? jsonObject(line) else { continue }
                arrivals.append((at, e))
                if stop(e) { return }
            }
        }
        collect(until: { $0["event"] as? String == "phase" && $0["cycle"] as? Int == 2 })
        for _ in 0..<3 {
            client.send(#"{"command":"pause"}"#)
            collect(until: { $0["event"] as? String == "applied" && $0["command"] as? String == "pause" })
            usleep(400_000)
            client.send(#"{"command":"resume"}"#)
            collect(until: { $0["event"] as? String == "phase" })
            collect(until: { $0["event"] as? String == "phase" })
        }
        client.send(#"{"command":"stop"}"#)
        _ = host.finish(timeout: 20)
        let drive = board.stop()
        var early: [String] = []
        var checked = 0
        for (readNs, e) in arrivals {
            guard let tick = e["board_tick"] as? Int else { continue }
            checked += 1
            let reached = drive.monotonicNs(atTick: UInt64(tick))
            if readNs < reached {
                early.append("\(e["event"] ?? "") \(e["phase"] ?? e["command"] ?? ""): \(Double(reached - readNs) / 1e6) ms early")
            }
        }
        print("events: \(checked) with a tick, early: \(early)")
        #expect(checked >= 12)
        #expect(early.isEmpty, "\(early)")
    }
}
