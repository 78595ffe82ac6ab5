// The simulated board's accelerometer: a PhysicalMotor driven by the levels the board output, read through
// an AccelerometerSpec with seeded noise (SENSE, capability bit 4).
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import Breath
import Glibc
import MotorPhysics

/// The simulated board's vibration sensor: a `PhysicalMotor` run through the drive levels in force at each
/// tick (from the port's drive changes), read as `spec` quantizes it, with seeded Gaussian noise.
///
///     var spec = SimBoardSpec()
///     spec.physicalMotor = myMotor          // any PhysicalMotor
///     spec.accelerometer = AccelerometerSpec()
public struct SimSensor: Sendable {
    /// The motor, advanced to `tick`.
    public private(set) var motor: any PhysicalMotor
    public let spec: AccelerometerSpec
    public let clockHz: UInt32
    /// The board tick the motor has been run to (nil until the first read or catch-up).
    public private(set) var tick: UInt64?
    /// The level in force just before `tick` (every change before it applied; one at `tick`, next advance).
    private var level: Int16 = 0
    private var rng: SplitMix64

    public init(motor: any PhysicalMotor, spec: AccelerometerSpec, seed: UInt64, clockHz: UInt32) {
        self.motor = motor
        self.spec = spec
        self.clockHz = clockHz
        rng = SplitMix64(seed: seed)
    }

    /// SENSOR's fixed fields for this sensor (part 0: simulated).
    public var description: SensorDescription {
        SensorDescription(maxRateHz: UInt16(clamping: Int(spec.maxRateHz)), scaleMicroG: UInt16(clamping: Int(spec.scaleMicroG.rounded())),
                          rangeG: UInt8(clamping: Int(spec.rangeG)), part: 0, sensorODRHz: UInt16(clamping: Int(spec.odrHz)))
    }

    /// The same motor after a reboot: the new clock's ticks start afresh (the motor keeps moving as it was).
    func rebooted() -> SimSensor {
        var s = self
        s.tick = nil
        s.level = 0
        return s
    }

    /// Runs the motor from `tick` to `target` through `changes` (sorted by tick), holding each level from its
    /// tick on, in steps of at most `maxStepSeconds`. A change at `tick` itself is applied now, not at the last
    /// advance: the board may schedule it after reading the sensor at that tick (the read comes first).
    public mutating func advance(to target: UInt64, changes: [DriveChange]) {
        guard let from = tick else {
            // At rest and off until the first change (the board's boot turns the motor off).
            tick = min(target, changes.first?.tick ?? target)
            level = 0
            advance(to: target, changes: changes)
            return
        }
        guard target > from else { return }
        var lo = 0, hi = changes.count  // the first change at or after `from`
        while lo < hi {
            let mid = (lo + hi) / 2
            if changes[mid].tick < from { lo = mid + 1 } else { hi = mid }
        }
        var i = lo
        var t = from
        while t < target {
            while i < changes.count && changes[i].tick <= t {
                level = changes[i].level
                i += 1
            }
            let next = i < changes.count ? min(changes[i].tick, target) : target
            run(level, seconds: Double(next - t) / Double(clockHz))
            t = next
        }
        tick = target
    }

    private mutating func run(_ level: Int16, seconds: Double) {
        let maxStep = max(motor.maxStepSeconds, 1e-6)
        let steps = max(1, Int((seconds / maxStep).rounded(.up)))
        let dt = seconds / Double(steps)
        // An LRA board outputs its carrier as alternating levels; the physical LRA synthesises the carrier
        // itself (CarrierDriven), so it gets the envelope: the magnitude.
        let drive = Double(motor is any CarrierDriven ? abs(Int(level)) : Int(level)) / 32767
        for _ in 0..<steps { motor.advance(drive: drive, seconds: dt) }
    }

    /// One reading now: the motor's acceleration plus seeded noise, in counts.
    public mutating func read() -> SensorSample {
        let noise = SIMD3(gaussian(), gaussian(), gaussian()) * spec.noiseG
        let c = spec.counts(motor.acceleration, noise: noise)
        return SensorSample(x: c.x, y: c.y, z: c.z)
    }

    /// Standard normal (Box-Muller) from the seeded source.
    private mutating func gaussian() -> Double {
        let u = max(rng.unit(), 1e-300)
        let v = rng.unit()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
