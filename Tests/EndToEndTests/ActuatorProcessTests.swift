// --actuator's offset and strength as a user gives them, judged from two `sim-board` processes' drive logs:
// an offset moves every felt crossing of that board by it (on CLOCK_MONOTONIC, through the reference ERM),
// and a strength scales an AHAP file's drive on that board alone.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import TestSupport
import Testing
import TimingBench

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(3))) struct ActuatorProcessTests {
    /// 2-1-3, the right board 300 ms later: each of its four half-strength crossings (inhale up, hold down,
    /// exhale up, exhale down) comes 300 ms after the left's.
    @Test func anActuatorsOffsetDelaysItsBoard() throws {
        let gate = RealTimeGate()
        defer { gate.release() }
        let pair = try TwoSimBoards()
        defer { pair.kill() }
        let a = pair.left, b = pair.right
        let result = try runMotorbreath(["--pattern", "2-1-3", "--cycles", "1", "--json", "--quiet", "--board", "left=\(a.ptyPath)",
                                         "--board", "right=\(b.ptyPath)", "--actuator", "right:offset=300"], timeout: 60)
        let first = a.stop(), second = b.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let report = try jsonObject(result.stdout)
        #expect((report["boards"] as? [[String: Any]])?.map { $0["offset_ms"] as? Int } == [0, 300])
        let l = first.feltCrossings, r = second.feltCrossings
        #expect(l.count == 4 && r.count == 4, "crossings \(l.map(\.up)) and \(r.map(\.up))")
        guard l.count == 4 && r.count == 4 else { return }
        let apart = zip(l, r).map { (Double($1.ns) - Double($0.ns)) / 1e6 }
        print("--actuator right:offset=300 on two sim-board processes: right minus left at half strength \(apart) ms")
        #expect(apart.allSatisfy { abs($0 - 300) <= 2 }, "offsets \(apart) ms, want 300")
    }

    /// An AHAP file (a 1 s swell up and down at 0.8) on two boards, the right at strength 0.5: its strongest
    /// drive is half the left's.
    @Test func anActuatorsStrengthScalesAnAHAPFile() throws {
        let gate = RealTimeGate()
        defer { gate.release() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mb-actuator-\(UUID().uuidString.prefix(8)).ahap")
        try #"""
        { "Version": 1.0, "Pattern": [
          { "Event": { "Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 2.0,
                       "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.8 } ] } },
          { "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 0.0, "ParameterCurveControlPoints": [
              { "Time": 0.0, "ParameterValue": 0.0 }, { "Time": 1.0, "ParameterValue": 1.0 }, { "Time": 2.0, "ParameterValue": 0.0 } ] } } ] }
        """#.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let pair = try TwoSimBoards()
        defer { pair.kill() }
        let a = pair.left, b = pair.right
        let result = try runMotorbreath(["--ahap", file.path, "--no-compensation", "--json", "--quiet", "--board", "left=\(a.ptyPath)",
                                         "--board", "right=\(b.ptyPath)", "--actuator", "right:strength=0.5"], timeout: 60)
        let left = a.stop(), right = b.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let l = left.changes.map { Int($0.level) }.max() ?? 0, r = right.changes.map { Int($0.level) }.max() ?? 0
        print("an AHAP file, right at strength 0.5: peak drive left \(l), right \(r) (ratio \(Double(r) / Double(max(l, 1))))")
        #expect(l > 20_000, "the left board's peak \(l)")
        #expect(abs(Double(r) / Double(max(l, 1)) - 0.5) < 0.03, "right \(r) against left \(l)")
    }
}
