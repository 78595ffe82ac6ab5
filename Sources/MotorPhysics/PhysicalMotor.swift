// A motor as a physical thing, not the renderer's shaping model: drive in, acceleration of its mounting out.
// SPDX-License-Identifier: Apache-2.0

/// A motor strapped to a mounting, simulated as physics: drive voltage in, the mounting's acceleration out.
/// The simulated board drives it from its drive log and reads a simulated accelerometer on it, so a bench
/// measures a motor whose behaviour the renderer's `MotorModel` (Breath) only approximates; motor
/// identification fits that model to what this one does.
///
///     var motor = MotorFile.coinERM10mm.makeMotor()
///     motor.advance(drive: 1, seconds: 0.2)
///     print(motor.acceleration)   // g on x, y, z; an ERM's spins in the x-y plane
public protocol PhysicalMotor: Sendable {
    /// Advances by `seconds` with `drive` (-1...1 of the drive supply; negative is reverse) held throughout.
    /// Callers step at most 1/20 of the motor's fastest period (`maxStepSeconds`).
    mutating func advance(drive: Double, seconds: Double)
    /// The mounting's acceleration now, g, per axis (x, y, z).
    var acceleration: SIMD3<Double> { get }
    /// The longest step `advance` integrates accurately, seconds.
    var maxStepSeconds: Double { get }
}
