// What a vibration measurement is made of: the drive the board output and the accelerometer's samples,
// both on the board's clock.
// SPDX-License-Identifier: Apache-2.0

/// One drive change at the board's output: `level` (-1...1 of full drive) from board tick `tick` on.
public struct DrivePoint: Sendable, Equatable, Codable {
    public var tick: UInt64
    public var level: Double

    public init(tick: UInt64, level: Double) {
        self.tick = tick
        self.level = level
    }
}

/// One accelerometer sample: read at board tick `tick`, in g per axis.
public struct AccelPoint: Sendable, Equatable {
    public var tick: UInt64
    public var g: SIMD3<Double>

    public init(tick: UInt64, g: SIMD3<Double>) {
        self.tick = tick
        self.g = g
    }
}

/// A measurement: the drive a board output and what its accelerometer read meanwhile, both stamped with
/// the board's ticks (SAMPLES' `first_tick`, PLAYED's `first_tick` or a simulated board's drive log), so
/// every figure made from it is on the board's clock and never on the host's sleep. Made by the simulated
/// board, by a session sampling a real board (SENSE), or by `PhysicalMotor` runs in tests.
public struct VibrationRecording: Sendable {
    /// Board ticks per second.
    public var clockHz: Double
    public var drive: [DrivePoint]
    public var samples: [AccelPoint]
    /// Samples the board reported lost (SAMPLES `lost`): gaps in `samples`, not zeros.
    public var lostSamples: Int

    public init(clockHz: Double, drive: [DrivePoint] = [], samples: [AccelPoint] = [], lostSamples: Int = 0) {
        self.clockHz = clockHz
        self.drive = drive
        self.samples = samples
        self.lostSamples = lostSamples
    }
}
