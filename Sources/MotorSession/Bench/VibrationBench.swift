// `bench --vibration`'s session: a stimulus played on a board as raw drive levels while its accelerometer
// is sampled, recorded on the board's clock.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorPhysics
import MotorWire

/// A stimulus's levels as frames in the prepared board's duty format: no shaping, the drive as asked.
final class LevelFrames: FrameSource {
    let levels: [Double]
    let resolution: DutyResolution

    init(_ levels: [Double], resolution: DutyResolution) {
        self.levels = levels
        self.resolution = resolution
    }

    var frameCount: Int { levels.count }

    func frames(from start: Int, count: Int) -> [UInt16] {
        (start..<min(start + count, levels.count)).map { resolution.raw(forDrive: levels[$0]) }
    }
}

/// The vibration bench's session: plays a `Stimulus` (MotorPhysics: steps, a brake kick, a staircase, a ramp,
/// a breath) on the board as raw levels, every frame reported, while the board samples its accelerometer
/// (SENSE), and returns the recording: the samples and the drive the board reported playing, both on its
/// clock. An ERM is sampled on x and y at 1000/s (its vector turns in that plane) in batches of 6, an LRA on
/// z at 1600/s in batches of 12: 24 sample bytes a batch, what the ATmega328P board holds; 7 300 and 5 900
/// bytes/s with a PLAYED every 25 frames, inside 115200 baud's 11 520 (protocol.md, SENSE).
///
///     let recording = try VibrationBench.record(channel: channel, stimulus: Stimulus.bench(for: .erm, motor: file))
///     print(VibrationAnalysis.analyse(recording, kind: .erm).text())
public enum VibrationBench {
    /// The sampling a bench asks of a board with this motor kind.
    public static func sensing(for kind: MotorFile.Kind) -> SensingRequest {
        kind == .lra ? SensingRequest(rateHz: 1600, axes: Sense.axisZ, batch: 12)
            : SensingRequest(rateHz: 1000, axes: Sense.axisX | Sense.axisY, batch: 6)
    }

    /// Plays `stimulus` on `channel`'s board (which must have a sensor: INFO capability bit 4) and records.
    /// `base` gives the boot wait and timeouts; the frame rate is the stimulus's.
    public static func record(channel: BoardChannel, base: SessionOptions = SessionOptions(), stimulus: Stimulus,
                              shouldStop: () -> Bool = { false }) throws(SessionError) -> (recording: VibrationRecording, report: PlayReport) {
        var options = base
        options.frameRate = stimulus.frameRate
        options.allowReverse = true
        options.reportEvery = 25  // the drive timeline needs PLAYED's ticks, not a report per frame
        let prepared = try channel.prepare(options: options)
        guard prepared.info.capabilitySet.contains(.sensor) else {
            throw SessionError.incompatible("it has no vibration sensor (INFO capability bit 4): wire an ADXL345 (hardware/), or run sim-board --motor-file F")
        }
        options.sensing = sensing(for: prepared.info.motorKind == .lra ? .lra : .erm)
        let player = Player(channel: channel, prepared: prepared, options: options)
        let report = try player.play(LevelFrames(stimulus.levels, resolution: DutyResolution(prepared.config.dutyFormat)),
                                     shouldStop: shouldStop)
        var recording = player.vibration?.recording ?? VibrationRecording(clockHz: Double(prepared.info.clockHz))
        recording.drive = changes(recording.drive)
        return (recording, report)
    }

    /// The drive as changes: the recorder keeps a point per frame played; the analysis reads each point as a
    /// change (a step starts there), so runs of one level become their first point.
    static func changes(_ drive: [DrivePoint]) -> [DrivePoint] {
        var out: [DrivePoint] = []
        for d in drive.sorted(by: { $0.tick < $1.tick }) where out.last?.level != d.level { out.append(d) }
        return out
    }
}
