// A session sampling the vibration sensor of a board in the simulated world, in virtual time: the
// recording's samples and drive against the board's own play log and drive log (its truth, on its clock).
// SPDX-License-Identifier: Apache-2.0

import MotorPhysics
import MotorSession
import MotorWire
import SimBoard
import Testing
import TestSupport
import Breath

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct VirtualSamplingTests {
    /// Runs a 2 s breath sampled at 800 Hz on X and Z, batches of 16, on a board `driftPPM` off the host.
    func record(driftPPM: Double) throws -> (rec: VibrationRecording, recorder: VibrationRecorder, world: SimWorld, report: PlayReport) {
        var spec = SimBoardSpec()
        spec.physicalMotor = DriveOnX()
        spec.accelerometer = quietAccelerometer()
        spec.driftPPM = driftPPM
        let world = SimWorld(spec: spec, pacing: .virtual, seed: 5)
        let options = SessionOptions()
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        let prepared = try channel.prepare(options: options)
        #expect(prepared.info.capabilityNames.contains("vibration-sensor"))
        let player = Player(channel: channel, prepared: prepared, options: options)
        player.sensing = SensingRequest(rateHz: 800, axes: Sense.axisX | Sense.axisZ, batch: 16)
        let plan = BreathPlan(pattern: BreathPattern(name: "t", inhale: 0.8, hold: 0.4, exhale: 0.8), options: BreathOptions())
        let report = try player.play(FrameWindow(FrameRenderer(plan: plan, frameRate: 250, compensate: false)))
        let recorder = try #require(player.vibration)
        return (recorder.recording, recorder, world, report)
    }

    @Test(arguments: [0.0, 150.0])
    func theRecordingIsTheBoardsTruth(driftPPM: Double) throws {
        let (rec, recorder, world, report) = try record(driftPPM: driftPPM)
        #expect(report.framesPlayed == 500 && report.dutyMismatches == 0)
        #expect(rec.lostSamples == 0 && recorder.seqBreaks == 0 && recorder.unusable == 0)
        let interval = UInt64(SensorState.intervalTicks(clockHz: 1_000_000, rateHz: 800))  // 1250
        #expect(rec.samples.count > 1500, "\(rec.samples.count) samples")
        for (a, b) in zip(rec.samples, rec.samples.dropFirst()) { #expect(b.tick - a.tick == interval) }
        // Each sample reads the level the board's drive log had in force at its tick; z reads nothing.
        let changes = world.driveChanges
        func counts(before tick: UInt64) -> Int {
            let level = changes.last { $0.tick < tick }?.level ?? 0
            return Int((Double(level) / 32767 * 256).rounded())
        }
        let off = rec.samples.filter { Int(($0.g.x / 0.00390625).rounded()) != counts(before: $0.tick) || $0.g.z != 0 }
        for o in off.prefix(3) {
            let near = changes.filter { $0.tick + 5000 > o.tick && $0.tick < o.tick + 5000 }.map { "\($0.tick):\($0.level)" }
            print("off: \(o.tick) x \(o.g.x / 0.00390625) z \(o.g.z) expected \(counts(before: o.tick)) near \(near)")
        }
        #expect(off.isEmpty, "\(off.count) samples off the drive log, first at \(off.first?.tick ?? 0)")
        #expect(rec.samples.filter { $0.g.x > 0.5 }.count > 300)
        // The drive from PLAYED: every frame at the tick the board's play log has for it, at its level.
        let plays = world.plays
        #expect(rec.drive.count == plays.count && plays.count == 500)
        var worst: Int64 = 0
        for (d, p) in zip(rec.drive, plays) {
            worst = max(worst, abs(Int64(bitPattern: d.tick &- p.tick)))
            #expect(d.level == VibrationRecorder.level(p.raw, .u8))
        }
        print("drift \(driftPPM) ppm: \(rec.samples.count) samples, drive ticks off the play log by at most \(worst)")
        #expect(worst <= (driftPPM == 0 ? 0 : 100), "drive ticks off the board's play log by up to \(worst)")
    }

    /// An app asks through SessionOptions and reads the recording off the session's player; a board without a
    /// sensor is sent no SENSE and plays as before.
    @Test func aBreathSessionSamplesThroughItsOptions() throws {
        for withMotor in [true, false] {
            var spec = SimBoardSpec()
            if withMotor { spec.physicalMotor = DriveOnX() }
            let world = SimWorld(spec: spec, pacing: .virtual, seed: 9)
            var options = SessionOptions()
            options.sensing = SensingRequest(rateHz: 500, axes: Sense.axisX, batch: 25)
            let session = BreathSession(link: world.hostLink, clock: world.hostClock, options: options)
            let report = try session.play(try BreathPattern.parse("1-0-1"), compensate: false)
            #expect(report.framesPlayed == report.framesTotal && report.naks == 0, "\(report.naks) NAKs")
            let recorder = session.player?.vibration
            if withMotor {
                let samples = try #require(recorder).recording.samples
                #expect(samples.count > 900 && zip(samples, samples.dropFirst()).allSatisfy { $1.tick - $0.tick == 2000 })
            } else {
                #expect(recorder == nil)
            }
        }
    }
}
