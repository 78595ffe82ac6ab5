// The board's motor output, abstracted: firmware writes timer registers, the simulator logs and models.
// SPDX-License-Identifier: Apache-2.0

/// Where BoardCore sends drive levels. Levels are -32767...32767 (negative = reverse drive).
/// `schedule` is called with non-decreasing ticks, never earlier than the board's `now`
/// (the core may schedule up to its output lead ahead, like a timer's preload register).
public protocol MotorPort: SensorPort {
    /// Output `level` from board tick `tick` on.
    mutating func schedule(level: Int16, at tick: UInt64)
    /// Motor off at `tick` (the current time); scheduled levels after it are cancelled.
    mutating func off(at tick: UInt64)
    /// Frame `index` (scheduled for `due`) was output at `tick` with raw value `raw`. For measurement:
    /// hardware ignores it (the default does nothing).
    mutating func played(index: UInt32, due: UInt64, at tick: UInt64, raw: UInt16)
}

extension MotorPort {
    public mutating func played(index: UInt32, due: UInt64, at tick: UInt64, raw: UInt16) {}
    /// No vibration sensor (SensorPort.swift): the default for boards without one.
    public var sensor: SensorDescription? { nil }
    public mutating func readSensor(at tick: UInt64) -> SensorSample { SensorSample(x: 0, y: 0, z: 0) }
}
