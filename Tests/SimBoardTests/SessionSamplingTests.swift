// A session sampling the board's vibration sensor while it plays: the VibrationRecording's samples and drive
// judged against the simulated board's own drive log, on its clock (not against host counters).
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorPhysics
import MotorSession
import MotorWire
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct SessionSamplingTests {
    /// The level in force at `tick` in the board's drive log (changes at `tick` included or not).
    func level(_ changes: [DriveChange], at tick: UInt64, including: Bool) -> Int16 {
        changes.last { including ? $0.tick <= tick : $0.tick < tick }?.level ?? 0
    }

    @Test func aSessionRecordsSamplesAndDriveOnTheBoardClock() throws {
        var spec = SimBoardSpec()
        spec.physicalMotor = DriveOnX()  // acceleration on x = the level in force: each sample names it
        spec.accelerometer = quietAccelerometer()
        spec.outputLeadMs = 100
        let (link, board) = SimulatedBoard.inProcess(spec: spec)
        defer { board.stop() }
        var options = SessionOptions()
        options.startLeadMs = 100
        var o = BreathOptions()
        o.peak = 1
        let plan = BreathPlan(pattern: BreathPattern(name: "t", inhale: 0.5, hold: 0.2, exhale: 0.5), options: o)
        let channel = BoardChannel(link: link)
        let prepared = try channel.prepare(options: options)
        let player = Player(channel: channel, prepared: prepared, options: options)
        player.sensing = SensingRequest(rateHz: 1000, axes: Sense.axisX, batch: 10)
        let report = try player.play(FrameWindow(FrameRenderer(plan: plan, frameRate: 250, compensate: false)))
        #expect(report.framesPlayed == 300 && report.dutyMismatches == 0)
        let recorder = try #require(player.vibration)
        let rec = recorder.recording
        let changes = board.driveChanges
        #expect(rec.clockHz == 1_000_000 && rec.lostSamples == 0 && recorder.seqBreaks == 0)
        #expect(rec.samples.count > 1000, "\(rec.samples.count) samples")
        // Exactly one interval apart, and each reads the level the board had in force at its tick.
        for (a, b) in zip(rec.samples, rec.samples.dropFirst()) { #expect(b.tick - a.tick == 1000) }
        var mismatched = 0, moving = 0
        for s in rec.samples {
            let counts = Int((s.g.x / 0.003906).rounded())
            let before = Int((Double(level(changes, at: s.tick, including: false)) / 32767 * 256).rounded())
            let at = Int((Double(level(changes, at: s.tick, including: true)) / 32767 * 256).rounded())
            if counts != before && counts != at { mismatched += 1 }
            if counts != 0 { moving += 1 }
        }
        #expect(mismatched == 0 && moving > 500, "\(mismatched) samples off the drive log, \(moving) nonzero")
        // The samples cover the playback: frame 0's tick and the last frame's lie inside them.
        let t0 = try #require(player.starts.first).start.timebase.due(0)
        #expect(rec.samples.first!.tick <= t0 && rec.samples.last!.tick >= t0 + 299 * 4000 - 50_000)
        // The drive from PLAYED: every frame at the tick the board output it, at the level it output. A
        // re-timing START inside a PLAYED report moves the frames after it by the correction, which the host
        // cannot place exactly (it does not know when the START arrived): within the largest correction.
        let starts = player.starts.map(\.start)
        var jump: UInt64 = 0
        for (a, b) in zip(starts, starts.dropFirst()) {
            jump = max(jump, UInt64(abs(Int64(bitPattern: a.timebase.due(b.anchorIndex) &- b.anchorTick))))
        }
        #expect(rec.drive.count == 300)
        var exact = 0
        for d in rec.drive {
            let near = [d.tick, d.tick &- jump, d.tick &+ jump].map { Double(level(changes, at: $0, including: true)) / 32767 }
            if abs(near[0] - d.level) < 1e-9 { exact += 1 }
            #expect(near.contains { abs($0 - d.level) < 1e-9 }, "tick \(d.tick), \(starts.count - 1) re-times, largest \(jump) ticks")
        }
        print("\(rec.samples.count) samples; drive: \(exact) of 300 exactly on the log, \(starts.count - 1) re-timing STARTs, largest \(jump) ticks")
    }
}
