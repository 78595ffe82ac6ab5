// An LRA simulated as a driven mass-spring resonator on a mounting, shaking it along z.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A motor the board drives with a carrier it synthesises (an LRA): `carrierHz` is that carrier's frequency,
/// set by whoever plays the drive (a sweep changes it).
public protocol CarrierDriven: PhysicalMotor {
    var carrierHz: Double { get set }
}

/// An LRA's physical parameters (a motor file's `lra`): resonance, quality, moving mass and the peak force
/// of full drive; the motor's own mass adds to the mounting's.
public struct LRAPhysics: Sendable, Equatable, Codable {
    public var resonanceHz: Double
    public var quality: Double
    public var movingMassG: Double
    /// Peak force of the coil at full drive, N.
    public var forceN: Double
    public var motorMassG: Double

    public init(resonanceHz: Double, quality: Double, movingMassG: Double, forceN: Double, motorMassG: Double) {
        self.resonanceHz = resonanceHz
        self.quality = quality
        self.movingMassG = movingMassG
        self.forceN = forceN
        self.motorMassG = motorMassG
    }

    enum CodingKeys: String, CodingKey {
        case resonanceHz = "resonance_hz", quality, movingMassG = "moving_mass_g", forceN = "force_n"
        case motorMassG = "motor_mass_g"
    }

    /// The envelope's time constant, s: 2Q/ω0 = Q/(π·f0) (the shaping model's LRA tau).
    public var envelopeTau: Double { quality / (Double.pi * resonanceHz) }

    /// Peak mounting acceleration at full drive on resonance, g: F·Q / M_total.
    public func peakG(mountingG: Double) -> Double {
        forceN * quality / ((mountingG + motorMassG) / 1000) / 9.80665
    }
}

/// An LRA as physics: m·ẍ + c·ẋ + k·x = F·drive·sin(φ), φ the board's carrier (at `carrierHz`), with
/// k = m·ω0², c = m·ω0/Q. The mounting feels the reaction, −m·ẍ / M_total, along z. A negative drive is the
/// carrier in antiphase (what a driver brakes an LRA with). Integrated by RK4 at ≥ 20 steps per period.
public struct PhysicalLRA: CarrierDriven {
    public let physics: LRAPhysics
    public let mountingG: Double
    public var carrierHz: Double
    /// Moving mass's displacement, m, and velocity, m/s; the carrier's phase, rad.
    public private(set) var x = 0.0
    public private(set) var v = 0.0
    public private(set) var phase = 0.0
    var lastAcceleration = 0.0  // m/s², of the moving mass

    public init(physics: LRAPhysics, mountingG: Double, carrierHz: Double? = nil) {
        self.physics = physics
        self.mountingG = mountingG
        self.carrierHz = carrierHz ?? physics.resonanceHz
    }

    public var maxStepSeconds: Double { 1 / (20 * max(physics.resonanceHz, carrierHz)) }

    public var acceleration: SIMD3<Double> {
        let m = physics.movingMassG / 1000, total = (mountingG + physics.motorMassG) / 1000
        return SIMD3(0, 0, -m * lastAcceleration / total / 9.80665)
    }

    public mutating func advance(drive: Double, seconds: Double) {
        guard seconds > 0 else { return }
        let steps = max(1, Int((seconds / maxStepSeconds).rounded(.up)))
        let h = seconds / Double(steps)
        let w0 = 2 * Double.pi * physics.resonanceHz, wc = 2 * Double.pi * carrierHz
        let c = w0 / physics.quality, k = w0 * w0
        let f = physics.forceN * min(max(drive, -1), 1) / (physics.movingMassG / 1000)
        func acc(_ x: Double, _ v: Double, _ p: Double) -> Double { f * sin(p) - c * v - k * x }
        for _ in 0..<steps {
            let a1 = acc(x, v, phase)
            let x2 = x + 0.5 * h * v, v2 = v + 0.5 * h * a1
            let a2 = acc(x2, v2, phase + 0.5 * h * wc)
            let x3 = x + 0.5 * h * v2, v3 = v + 0.5 * h * a2
            let a3 = acc(x3, v3, phase + 0.5 * h * wc)
            let x4 = x + h * v3, v4 = v + h * a3
            let a4 = acc(x4, v4, phase + h * wc)
            x += h / 6 * (v + 2 * v2 + 2 * v3 + v4)
            v += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
            phase = (phase + h * wc).truncatingRemainder(dividingBy: 2 * .pi)
            lastAcceleration = acc(x, v, phase)
        }
    }
}
