// What one calibration trial plays: steady drive levels held for set times, and the stretch at its end
// the person judges. Also how such a stimulus feels on a motor model (for the simulated person).
// SPDX-License-Identifier: Apache-2.0

import Breath

/// A trial's drive program: `segments` played in order from rest, the last `judgedSeconds` judged.
public struct Stimulus: Sendable, Equatable {
    /// One steady drive `level` (fraction of full drive) held for `seconds`.
    public struct Segment: Sendable, Equatable {
        public var level: Double
        public var seconds: Double
        /// `level` held for `seconds`.
        public init(_ level: Double, _ seconds: Double) {
            self.level = level
            self.seconds = seconds
        }
    }

    public var segments: [Segment]
    public var judgedSeconds: Double

    public init(segments: [Segment], judgedSeconds: Double) {
        self.segments = segments
        self.judgedSeconds = judgedSeconds
    }

    public var seconds: Double { segments.reduce(0) { $0 + $1.seconds } }

    /// The drive at `t` seconds from the stimulus start (0 after its end).
    public func level(at t: Double) -> Double {
        var start = 0.0
        for s in segments {
            if t < start + s.seconds { return s.level }
            start += s.seconds
        }
        return 0
    }

    /// Mean felt amplitude over the judged stretch when played from rest on `motor`.
    public func judgedAmplitude(on motor: MotorProfile, dt: Double = 0.001) -> Double {
        judgedAmplitude(of: { self.level(at: $0) }, on: motor, dt: dt)
    }

    /// Mean felt amplitude over the judged stretch of `drive` (the drive at each time from the stimulus
    /// start, asked at increasing times: what the stimulus meant, or what a board really output) played
    /// from rest on `motor`, stepped every `dt` seconds.
    public func judgedAmplitude(of drive: (Double) -> Double, on motor: MotorProfile, dt: Double = 0.001) -> Double {
        var model: any MotorModel = {
            switch motor {
            case .erm(let m): return m.atRest
            case .lra(let m): return LRAModel(tau: m.tau, resonanceHz: m.resonanceHz, quality: m.quality, carrierHz: m.carrierHz)
            }
        }()
        let total = seconds
        let judgedFrom = total - judgedSeconds
        var sum = 0.0, n = 0
        var t = 0.0
        while t < total - 1e-12 {
            model.advance(drive: drive(t), seconds: dt)
            t += dt
            if t > judgedFrom + 1e-12 {
                sum += model.amplitude
                n += 1
            }
        }
        return n > 0 ? sum / Double(n) : 0
    }

    /// A board's output as (seconds from its first change, drive) read as a drive function for
    /// `judgedAmplitude(of:on:)`: 0 before the first change, then the latest change's level. Ask it at
    /// increasing times (it walks the timeline once).
    public static func drive(following timeline: [(seconds: Double, drive: Double)]) -> (Double) -> Double {
        var k = 0
        return { t in
            while k + 1 < timeline.count && timeline[k + 1].seconds <= t { k += 1 }
            return timeline.isEmpty || timeline[0].seconds > t ? 0 : timeline[k].drive
        }
    }
}

extension ERMModel {
    /// The same motor, at rest.
    public var atRest: ERMModel {
        ERMModel(riseTau: riseTau, fallTau: fallTau, brakeTau: brakeTau, startThreshold: startThreshold, stopThreshold: stopThreshold)
    }
}
