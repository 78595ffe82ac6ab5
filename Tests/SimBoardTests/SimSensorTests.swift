// The simulated board's sensor: a PhysicalMotor driven by the level in force at each tick (also across the
// drive log taking settled changes away), stepped at most maxStepSeconds, quantized with seeded noise; and a
// board without a physical motor has no sensor.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import MotorPhysics
import MotorWire
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SimSensorTests {
    func port(seed: UInt64 = 1, spec: AccelerometerSpec = quietAccelerometer()) -> SimMotorPort {
        SimMotorPort(sensor: SimSensor(motor: DriveOnX(), spec: spec, seed: seed, clockHz: 1_000_000))
    }

    @Test func withoutAPhysicalMotorTheBoardHasNoSensor() {
        var spec = SimBoardSpec()
        #expect(!spec.capabilities.contains(.sensor) && spec.makeMotorPort().sensor == nil)
        spec.physicalMotor = DriveOnX()
        #expect(spec.capabilities.contains(.sensor))
        let d = spec.makeMotorPort().sensor
        #expect(d == SensorDescription(maxRateHz: 3200, scaleMicroG: 3906, rangeG: 16, part: 0, sensorODRHz: 3200))
        let core = BoardCore(port: spec.makeMotorPort(), info: spec.info)
        #expect(core.info.capabilitySet.contains(.sensor))
    }

    /// Levels scheduled ahead (an output lead) take effect at their ticks, not when scheduled; a reading
    /// names the level in force just before it; settled changes taken by the drive log are not lost.
    @Test func theMotorRunsThroughTheLevelInForceAtEachTick() {
        var p = port()
        p.off(at: 1000)
        p.schedule(level: 32767, at: 2000)
        p.schedule(level: 16384, at: 3000)
        p.schedule(level: -32767, at: 9000)  // far ahead
        #expect(p.readSensor(at: 1500).x == 0)
        #expect(p.readSensor(at: 2500).x == 256)
        _ = p.takeSettled(before: 3100)  // the drive log takes 2000 and 3000 away
        #expect(p.readSensor(at: 3500).x == 128)
        p.off(at: 4000)  // cancels the level at 9000
        #expect(p.readSensor(at: 9500).x == 0)
        p.schedule(level: 32767, at: 10_000)
        #expect(p.readSensor(at: 10_000).x == 0, "the level changing at the reading's tick has not acted yet")
        #expect(p.readSensor(at: 10_001).x == 256)
        // The board reads the sensor first and then outputs the frame due at the same tick: the level
        // scheduled at the tick just read acts from there on.
        #expect(p.readSensor(at: 11_000).x == 256)
        p.schedule(level: 16384, at: 11_000)
        #expect(p.readSensor(at: 11_001).x == 128)
        let motor = p.sensorSim!.motor as! DriveOnX
        #expect(motor.longestStep <= 0.0005 + 1e-12 && abs(motor.elapsed - 0.010_001) < 1e-9)
    }

    /// Noise is seeded: the same seed reads the same, another seed differently, at the spec's rms.
    @Test func noiseIsSeededGaussianAtTheSpecsLevel() {
        var spec = AccelerometerSpec()
        spec.noiseG = 0.01
        func reads(_ seed: UInt64) -> [Int16] {
            var p = port(seed: seed, spec: spec)
            p.off(at: 0)
            return (1...4000).map { p.readSensor(at: UInt64($0) * 100).y }
        }
        let a = reads(7)
        #expect(a == reads(7) && a != reads(8))
        let rms = (a.map { Double($0) * Double($0) }.reduce(0, +) / Double(a.count)).squareRoot() * 0.00390625
        #expect(abs(rms - 0.01) < 0.001, "\(rms) g rms")
    }
}
