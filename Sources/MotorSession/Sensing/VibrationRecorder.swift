// A session's vibration measurement: SENSOR and SAMPLES turned into a VibrationRecording on the board clock
// (samples in g, lost samples counted), beside the drive the board reported playing (PLAYED).
// SPDX-License-Identifier: Apache-2.0

import MotorPhysics
import MotorWire

/// Collects what a board with a vibration sensor (INFO capability bit 4) sends while it samples: SENSOR says
/// the axes, the scale and the interval, every SAMPLES adds its samples at `first_tick + j × interval_ticks`,
/// converted to g. PLAYED reports, with the frames' values and the timebase, add the drive timeline.
///
///     let recorder = VibrationRecorder(clockHz: info.clockHz)
///     for m in messages { recorder.take(m) }
///     let recording = recorder.recording  // samples and drive on board ticks
public final class VibrationRecorder: @unchecked Sendable {
    /// What has been collected so far.
    public private(set) var recording: VibrationRecording
    /// The SENSOR in force (nil before the first).
    public private(set) var sensor: SensorState?
    /// SAMPLES whose `seq` did not follow the previous one's (a batch lost on the line, or out of order).
    public private(set) var seqBreaks = 0
    /// SAMPLES that came while no SENSOR was in force, or with another axes count than it says (dropped).
    public private(set) var unusable = 0
    private var nextSeq: UInt16?

    public init(clockHz: UInt32) {
        recording = VibrationRecording(clockHz: Double(clockHz))
    }

    /// Takes SENSOR and SAMPLES; ignores every other message.
    public func take(_ m: BoardMessage) {
        switch m {
        case .sensor(let s):
            sensor = s
            nextSeq = s.rateHz > 0 ? 0 : nil
        case .samples(let b):
            add(b)
        default:
            break
        }
    }

    private func add(_ b: SampleBatch) {
        guard let s = sensor, s.rateHz > 0, Sense.axisCount(s.axes) == Int(b.axisCount) else {
            unusable += 1
            return
        }
        if let expected = nextSeq, expected != b.seq { seqBreaks += 1 }
        nextSeq = b.seq &+ 1
        recording.lostSamples += Int(b.lost)
        let scale = Double(s.scaleMicroG) / 1_000_000
        let interval = UInt64(s.intervalTicks)
        for j in 0..<b.count {
            var g = SIMD3<Double>(repeating: 0)
            var k = 0
            for axis in 0..<3 where s.axes & (1 << axis) != 0 {
                g[axis] = Double(b[j, k]) * scale
                k += 1
            }
            recording.samples.append(AccelPoint(tick: b.firstTick &+ UInt64(j) &* interval, g: g))
        }
    }

    /// A PLAYED report: frame `p.firstIndex + j` took `values[j]` (raw, in `format`) at `p.firstTick` plus its
    /// due tick's distance from the first's under `timebase` (the board's clock, not the host's). Exact but
    /// for a re-timing START that reached the board inside the report: the frames after it moved by the
    /// correction (34 ticks at 1 MHz in SessionSamplingTests), which the host cannot place.
    public func played(_ p: Played, values: [UInt16], format: DutyFormat, timebase: Timebase?) {
        let first = timebase?.due(p.firstIndex)
        for (j, raw) in values.prefix(Int(p.count)).enumerated() {
            let index = p.firstIndex &+ UInt32(j)
            let offset = first.map { timebase!.due(index) &- $0 } ?? 0
            recording.drive.append(DrivePoint(tick: p.firstTick &+ offset, level: Self.level(raw, format)))
        }
    }

    /// A raw value's drive level, -1...1 of full drive (protocol.md section 5).
    public static func level(_ raw: UInt16, _ format: DutyFormat) -> Double {
        switch format {
        case .u8: Double(Int(raw) * 32767 / 255) / 32767
        case .u16: Double(raw >> 1) / 32767
        case .i16: Double(Int16(bitPattern: raw)) / 32767
        }
    }
}
