// Test doubles of PhysicalMotor for the simulated board's sensor: not physics (MotorPhysics has that), just
// motors whose acceleration says exactly what drive they were given and how they were stepped.
// SPDX-License-Identifier: Apache-2.0

import MotorPhysics

/// Acceleration on x = the drive level last given (g): a reading names the level in force.
struct DriveOnX: PhysicalMotor {
    var drive = 0.0
    /// The longest step it was advanced by, seconds.
    var longestStep = 0.0
    /// Seconds advanced in all.
    var elapsed = 0.0
    var maxStepSeconds: Double { 0.0005 }
    mutating func advance(drive: Double, seconds: Double) {
        self.drive = drive
        longestStep = max(longestStep, seconds)
        elapsed += seconds
    }
    var acceleration: SIMD3<Double> { SIMD3(drive, 0, 0) }
}

/// An accelerometer without noise, at the default scale (3906.25 µg: 1 g is 256 counts).
func quietAccelerometer() -> AccelerometerSpec {
    var a = AccelerometerSpec()
    a.noiseG = 0
    return a
}
