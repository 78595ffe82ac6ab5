// The board's vibration sensor as BoardCore sees it (capability bit 4, protocol.md section 4, SENSE).
// SPDX-License-Identifier: Apache-2.0

/// What a board's vibration sensor is: SENSOR's fixed fields. Firmware fills it from the part it found at
/// boot (an ADXL345 answers DEVID 0xE5); the simulated board from its motor file.
public struct SensorDescription: Sendable, Equatable {
    /// Highest rate the board samples at, samples per second.
    public var maxRateHz: UInt16
    /// Acceleration per count, µg (3906 for an ADXL345 at full resolution).
    public var scaleMicroG: UInt16
    /// The sensor's range, ± g.
    public var rangeG: UInt8
    /// 0: simulated, 1: ADXL345.
    public var part: UInt8
    /// The sensor's own output data rate: a read sample is at most 1 / this old.
    public var sensorODRHz: UInt16

    public init(maxRateHz: UInt16, scaleMicroG: UInt16, rangeG: UInt8, part: UInt8, sensorODRHz: UInt16) {
        self.maxRateHz = maxRateHz
        self.scaleMicroG = scaleMicroG
        self.rangeG = rangeG
        self.part = part
        self.sensorODRHz = sensorODRHz
    }
}

/// One accelerometer reading, counts per axis (scale: `SensorDescription.scaleMicroG`).
public struct SensorSample: Sendable, Equatable {
    public var x: Int16
    public var y: Int16
    public var z: Int16

    public init(x: Int16, y: Int16, z: Int16) {
        self.x = x
        self.y = y
        self.z = z
    }
}

/// The sensor side of a board's hardware: a board whose port has a sensor returns its description and reads
/// it when BoardCore's sampling timer says. A board without one keeps the defaults (no sensor, capability bit
/// 4 clear, SENSE answered with NAK `unknown_type`).
public protocol SensorPort {
    /// The sensor, or nil for a board without one.
    var sensor: SensorDescription? { get }
    /// Reads the sensor at board tick `tick` (the current time; the simulator's motor model runs up to it).
    mutating func readSensor(at tick: UInt64) -> SensorSample
}
