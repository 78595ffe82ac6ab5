// The simulated board's PWM output: a log of drive changes on the board clock, fed to a motor model.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import Breath
import MotorPhysics

/// One drive change: `level` (-32767...32767) from board tick `tick` on.
public struct DriveChange: Sendable, Equatable {
    public var tick: UInt64
    public var level: Int16
}

/// Records every scheduled level and motor-off; `off` cancels levels scheduled after it.
public struct SimMotorPort: MotorPort, Sendable {
    public private(set) var changes: [DriveChange] = []
    /// Keeps at most this many changes (oldest dropped) so long sessions stay bounded.
    public var limit = 200_000
    /// The vibration sensor on the motor (SimSensor.swift), or nil: no sensor, capability bit 4 clear.
    public var sensorSim: SimSensor?

    public init(sensor: SimSensor? = nil) {
        sensorSim = sensor
    }

    public mutating func schedule(level: Int16, at tick: UInt64) {
        changes.append(DriveChange(tick: tick, level: level))
        if changes.count > limit {
            let n = changes.count - limit / 2
            sensorSim?.advance(to: changes[n - 1].tick, changes: changes)  // the sensor's motor runs through them first
            changes.removeFirst(n)
        }
    }

    public var sensor: SensorDescription? { sensorSim?.description }

    /// Runs the motor to `tick` through the levels in force at each tick, and reads the accelerometer.
    public mutating func readSensor(at tick: UInt64) -> SensorSample {
        guard var s = sensorSim else { return SensorSample(x: 0, y: 0, z: 0) }
        s.advance(to: tick, changes: changes)
        let r = s.read()
        sensorSim = s
        return r
    }

    public mutating func off(at tick: UInt64) {
        while let last = changes.last, last.tick > tick { changes.removeLast() }
        if changes.last?.level != 0 { changes.append(DriveChange(tick: tick, level: 0)) }
    }

    /// Removes and returns the changes before `tick`: those are final (a later `off` only cancels what
    /// is still ahead of the board's clock).
    public mutating func takeSettled(before tick: UInt64) -> [DriveChange] {
        let n = changes.firstIndex { $0.tick >= tick } ?? changes.count
        sensorSim?.advance(to: tick, changes: changes)  // the sensor's motor needs them: run it through first
        defer { changes.removeFirst(n) }
        return Array(changes[0..<n])
    }

    /// The level in force at `tick`.
    public func level(at tick: UInt64) -> Int16 {
        var lo = 0, hi = changes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if changes[mid].tick <= tick { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? 0 : changes[lo - 1].level
    }
}
