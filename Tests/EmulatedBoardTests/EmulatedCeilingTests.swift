// The drive ceiling in the firmware, seen where the motor would feel it: QEMU's log of TIM1 CCR1
// writes. A host that streams full duty regardless is held to the ceiling after the 50 ms overdrive
// budget, and gets no overdrive again until the 500 ms recovery has passed; a breath rendered with the
// board's LIMITS stays inside the rule. Durations come from the trace's host wall-clock stamps (QEMU's
// board clock follows the host's), with the emulator's own CPU wait as the judge of a late tail.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorSession
import MotorWire
import SerialLink
import TestSupport
import Testing

/// Fixed duty values, as a host that ignores the ceiling would send them.
final class FixedFrames: FrameSource {
    let values: [UInt16]
    init(_ values: [UInt16]) { self.values = values }
    var frameCount: Int { values.count }
    func frames(from start: Int, count: Int) -> [UInt16] { Array(values[min(start, values.count)..<min(start + count, values.count)]) }
}

/// QEMU build: TIM1 counts 168 MHz / 20 kHz = 8400 per PWM period (MotorDrive.swift).
let pwmTop: UInt32 = 8400

/// The compare value MotorDrive.set writes for a drive level.
func pwmCompare(_ level: UInt16) -> UInt32 { (UInt32(level) * pwmTop + 16383) / 32767 }

/// Stretches of CCR1 above `ceiling` in a list of writes: start, end (the first write at or below), and
/// the value that ended it.
func runsAbove(_ writes: [(at: Date, value: UInt32)], ceiling: UInt32) -> [(start: Date, end: Date, endValue: UInt32)] {
    var runs: [(Date, Date, UInt32)] = []
    var start: Date?
    for w in writes {
        if w.value > ceiling, start == nil { start = w.at }
        if w.value <= ceiling, let s = start {
            runs.append((s, w.at, w.value))
            start = nil
        }
    }
    return runs
}

/// In the one serialized suite: one emulator at a time, so the emulated boards do not load each other.
extension EmulatedBoardTests {

    @Test func aHostThatIgnoresTheCeilingIsHeldToIt() throws {
        let board = try EmulatedBoard(trace: true)
        defer { board.stop() }
        let link = try PortOpener.open(path: board.port)
        defer { link.close() }
        let channel = BoardChannel(link: link)
        var options = SessionOptions()
        options.reportEvery = 0
        let prepared = try channel.prepare(options: options)
        let limits = try #require(prepared.limits, "the firmware should advertise its drive ceiling")
        #expect(limits.ceilingLevel == 19660 && limits.overdriveMs == 50 && limits.recoveryMs == 500)
        #expect(limits.ratedMillivolts == 3000 && limits.supplyMillivolts == 5000)
        // Full duty in three bursts (250 Hz, u8): A 300 ms, 100 ms off, B 100 ms, 800 ms off, C 300 ms.
        func frames(_ value: UInt16, ms: Int) -> [UInt16] { [UInt16](repeating: value, count: ms / 4) }
        let source = FixedFrames(frames(255, ms: 300) + frames(0, ms: 100) + frames(255, ms: 100) + frames(0, ms: 800)
                                 + frames(255, ms: 300))
        let (report, qemuWaitMs) = try board.measuringQemuWait {
            try Player(channel: channel, prepared: prepared, options: options).play(source)
        }
        #expect(report.framesPlayed == source.frameCount && report.underruns == 0)

        let ceiling = pwmCompare(limits.ceilingLevel)
        let writes = try board.timerWrites(offset: 0x34)
        let runs = runsAbove(writes, ceiling: ceiling)
        let ms = runs.map { $0.end.timeIntervalSince($0.start) * 1000 }
        let bursts = writes.filter { $0.value > 0 }
        print("ceiling trace (host that ignores it): ceiling CCR1 \(ceiling) of \(pwmTop), highest \(writes.map(\.value).max() ?? 0); "
            + "overdrive runs \(ms.map { String(format: "%.1f", $0) }) ms, ended at \(runs.map(\.endValue)); "
            + "\(bursts.filter { $0.value == ceiling }.count) writes at the ceiling")
        // A overdrives for the 50 ms budget and then sits at the ceiling. B comes 350-450 ms after A's
        // budget ran out (recovery needs 500 ms at or below the ceiling) and gets none. C, long after,
        // gets the whole budget again.
        #expect(runs.count == 2, "\(runs.count) overdrive runs")
        #expect(runs.allSatisfy { $0.endValue == ceiling }, "each run ends at exactly the ceiling")
        #expect(ms.allSatisfy { $0 > 40 }, "\(ms)")
        #expect(writes.map(\.value).max() == pwmCompare(32767))
        try judgeTail(worstMs: ms.max() ?? 0, boundMs: 55, qemuWaitMs: qemuWaitMs, what: "the longest overdrive run lasted")
    }

    @Test func aBreathShapedWithTheBoardsLimitsStaysInside() throws {
        let board = try EmulatedBoard(trace: true)
        defer { board.stop() }
        let (r, qemuWaitMs) = try board.measuringQemuWait {
            try runMotorbreath(["--port", board.port, "--pattern", "4-0-4", "--quiet", "--json"], timeout: 120)
        }
        #expect(r.status == 0, "\(r.stderr)")
        let report = try jsonObject(r.stdout)
        #expect(report["duty_mismatches"] as? Int == 0)
        let ceiling = pwmCompare(19660)
        let writes = try board.timerWrites(offset: 0x34)
        let runs = runsAbove(writes, ceiling: ceiling)
        let ms = runs.map { $0.end.timeIntervalSince($0.start) * 1000 }
        let atOrBelow = writes.filter { $0.value <= ceiling }.count
        print("ceiling trace (4-0-4 shaped with LIMITS): \(writes.count) CCR1 writes, \(atOrBelow) at or below \(ceiling), "
            + "overdrive runs \(ms.map { String(format: "%.1f", $0) }) ms, highest \(writes.map(\.value).max() ?? 0)")
        #expect(writes.contains { $0.value > 0 }, "the motor was never driven")
        try judgeTail(worstMs: ms.max() ?? 0, boundMs: 55, qemuWaitMs: qemuWaitMs, what: "the longest overdrive run lasted")
    }
}
