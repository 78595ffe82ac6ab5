// The drive sequence a vibration bench plays: steps, a reverse kick, a ramp, a staircase, a breath, a sweep.
// SPDX-License-Identifier: Apache-2.0

import Breath

/// One named stretch of a stimulus: frames `startFrame..<startFrame + frameCount`, what it is for, its level
/// (a step's or a staircase tread's) and, for an LRA, the carrier the board plays it at.
public struct StimulusPart: Sendable, Equatable, Codable {
    /// What a part is for: the analysis and identification pick their stretches by it.
    public enum Kind: String, Sendable, Codable {
        /// Silence: the sensor's offset (gravity) and noise.
        case quiet
        /// A step from rest to `level`, then off.
        case step
        /// Full drive, then a reverse kick of `level` (< 0) for `kickFrames`, then off.
        case brake
        /// A tread of a staircase at `level` (the drive-to-vibration curve).
        case stair
        /// A short step from rest at `level` (< start threshold or not: does the rotor break free?).
        case start
        /// A ramp, a breath: played, analysed as a whole.
        case ramp, breath
        /// A sweep's segment: `level` at `carrierHz`.
        case sweep
    }

    public var kind: Kind
    public var startFrame: Int
    public var frameCount: Int
    /// Frames the drive is on (the rest is off); all of them for quiet, ramp, breath.
    public var onFrames: Int
    public var level: Double
    public var kickFrames: Int = 0
    public var carrierHz: Double?
}

/// The drive sequence a bench plays, frame by frame at `frameRate`, with the parts it is made of. A command
/// that plays it through a board only plays `levels` (setting the carrier of each part for an LRA) and
/// records; the analysis and the identification read the parts to know what each stretch was for.
///
///     let stimulus = Stimulus.identification(for: .erm)           // <= 30 s of motor time
///     let recording = SimulatedBench(file: file, seed: 1).record(stimulus)
public struct Stimulus: Sendable, Equatable, Codable {
    public var frameRate: Int
    public var levels: [Double] = []
    public var parts: [StimulusPart] = []

    public init(frameRate: Int) { self.frameRate = frameRate }

    public var seconds: Double { Double(levels.count) / Double(frameRate) }

    func frames(_ s: Double) -> Int { Int((s * Double(frameRate)).rounded()) }

    /// The carrier at frame `i` (an LRA's part's carrier, else `fallback`).
    public func carrierHz(atFrame i: Int, fallback: Double?) -> Double? {
        for p in parts where i >= p.startFrame && i < p.startFrame + p.frameCount { return p.carrierHz ?? fallback }
        return fallback
    }

    mutating func append(_ kind: StimulusPart.Kind, on: [Double], off: Double, level: Double, kick: Int = 0, carrier: Double? = nil) {
        let offFrames = frames(off)
        parts.append(StimulusPart(kind: kind, startFrame: levels.count, frameCount: on.count + offFrames, onFrames: on.count,
                                  level: level, kickFrames: kick, carrierHz: carrier))
        levels += on + [Double](repeating: 0, count: offFrames)
    }

    /// `seconds` of silence.
    public mutating func quiet(_ seconds: Double) { append(.quiet, on: [], off: seconds, level: 0) }

    /// A step from rest to `level` for `on` seconds, then `off` seconds off.
    public mutating func step(_ level: Double, on: Double, off: Double, kind: StimulusPart.Kind = .step, carrier: Double? = nil) {
        append(kind, on: [Double](repeating: level, count: frames(on)), off: off, level: level, carrier: carrier)
    }

    /// Full drive for `on` seconds, a reverse `kick` (level < 0) for `kickSeconds`, then `off` seconds off.
    public mutating func brake(on: Double, kick: Double, kickSeconds: Double, off: Double) {
        let k = frames(kickSeconds)
        append(.brake, on: [Double](repeating: 1, count: frames(on)) + [Double](repeating: kick, count: k), off: off, level: kick, kick: k)
    }

    /// A staircase: each level held `tread` seconds, then `off` seconds off.
    public mutating func staircase(_ treads: [Double], tread: Double, off: Double) {
        for (i, level) in treads.enumerated() {
            append(.stair, on: [Double](repeating: level, count: frames(tread)), off: i == treads.count - 1 ? off : 0, level: level)
        }
    }

    /// A linear ramp from `from` to `to` over `seconds`, then `off` seconds off.
    public mutating func ramp(from: Double, to: Double, seconds: Double, off: Double) {
        let n = frames(seconds)
        append(.ramp, on: (0..<n).map { from + (to - from) * Double($0) / Double(max(n - 1, 1)) }, off: off, level: to)
    }

    /// A breath as the renderer shapes it for `motor` (drive of every frame; silence after).
    /// `resolution` .i16 lets the shaper brake with reverse drive (an H-bridge board); .u8 cannot.
    public mutating func breath(_ plan: BreathPlan, motor: MotorProfile, resolution: DutyResolution = .i16, compensate: Bool = true,
                                feltRange: FeltRange? = nil, off: Double) {
        var renderer = FrameRenderer(plan: plan, frameRate: frameRate, resolution: resolution, motor: motor, compensate: compensate,
                                     feltRange: feltRange)
        var drives: [Double] = []
        while true {
            let chunk = renderer.renderDetailed(count: 4096)
            if chunk.isEmpty { break }
            drives += chunk.map(\.drive)
        }
        append(.breath, on: drives, off: off, level: plan.options.peak)
    }

    /// A carrier sweep: `level` held `each` seconds at every frequency, off `gap` seconds between.
    public mutating func sweep(_ frequencies: [Double], level: Double, each: Double, gap: Double) {
        for f in frequencies { step(level, on: each, off: gap, kind: .sweep, carrier: f) }
    }

    /// What identification plays (`MotorIdentification`), at most 30 s of motor time. ERM: steps from rest
    /// (rise and stop), a reverse kick (brake), a staircase (drive-to-vibration curve), short steps from rest
    /// at 0.04...0.30 (start threshold). LRA: a sweep 140...280 Hz, then steps at the board's carrier.
    public static func identification(for kind: MotorFile.Kind, frameRate: Int = 250, carrierHz: Double = 175) -> Stimulus {
        var s = Stimulus(frameRate: frameRate)
        s.quiet(0.3)
        switch kind {
        case .erm:
            for level in [1.0, 0.6, 0.35] { s.step(level, on: 0.8, off: 0.8) }
            s.brake(on: 0.6, kick: -1, kickSeconds: 0.016, off: 0.6)
            s.staircase([0.2, 0.4, 0.6, 0.8, 1.0], tread: 0.7, off: 0.8)
            for i in 0...26 { s.step(0.04 + 0.01 * Double(i), on: 0.35, off: 0.3, kind: .start) }
        case .lra:
            s.sweep(Array(stride(from: 140.0, through: 280, by: 5)), level: 0.6, each: 0.15, gap: 0.1)
            for level in [1.0, 0.5, 1.0, 0.5] { s.step(level, on: 0.3, off: 0.3, carrier: carrierHz) }
            s.staircase([0.25, 0.5, 0.75, 1.0], tread: 0.2, off: 0.3)
        }
        return s
    }

    /// The bench's whole stimulus: identification's, then a ramp and the 4-7-8 breath (`benchBreath`) shaped
    /// for `motor`.
    public static func bench(for kind: MotorFile.Kind, motor: MotorProfile, frameRate: Int = 250, carrierHz: Double = 175) throws -> Stimulus {
        var s = identification(for: kind, frameRate: frameRate, carrierHz: carrierHz)
        s.ramp(from: 0, to: 1, seconds: 3, off: 0.8)
        s.breath(try benchBreath(), motor: motor, off: 1)
        return s
    }

    /// The breath the bench plays and its felt error is judged against: the 4-7-8 at the default options.
    public static func benchBreath() throws -> BreathPlan {
        BreathPlan(pattern: try BreathPattern.parse("4-7-8"), options: BreathOptions())
    }

    /// `plan` alone, shaped for `motor`: 0.3 s quiet (the sensor's noise), the breath (`parts[1]`), 0.2 s off.
    public static func breathAlone(_ plan: BreathPlan, motor: MotorProfile, resolution: DutyResolution = .i16,
                                   feltRange: FeltRange? = nil, frameRate: Int = 250) -> Stimulus {
        var s = Stimulus(frameRate: frameRate)
        s.quiet(0.3)
        s.breath(plan, motor: motor, resolution: resolution, feltRange: feltRange, off: 0.2)
        return s
    }
}
