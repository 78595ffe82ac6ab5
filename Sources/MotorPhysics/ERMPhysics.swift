// An ERM's physical parameters as a motor file gives them: the DC motor, its friction and its eccentric mass.
// SPDX-License-Identifier: Apache-2.0

/// The physical parameters of an eccentric-rotating-mass motor, in SI units (a motor file's `erm`): a DC
/// motor (winding, back-EMF, rotor inertia), its friction (static, kinetic, viscous) and the eccentric mass
/// that shakes the mounting. Kept apart from the simulation so a file, a test and the docs speak of the same
/// numbers, and so the shaping model's equivalent parameters can be derived from them.
public struct ERMPhysics: Sendable, Equatable, Codable {
    /// Drive supply, V: drive 1 applies this voltage, -1 the same reversed (an H-bridge).
    public var supplyVolts: Double
    /// Winding resistance, Ω, and inductance, H.
    public var resistanceOhm: Double
    public var inductanceH: Double
    /// Torque constant, N·m/A, equal to the back-EMF constant in V·s/rad.
    public var torqueConstant: Double
    /// Rotor inertia with its eccentric mass, kg·m².
    public var inertia: Double
    /// Coulomb friction, N·m: to break a resting rotor free (static) and while it turns (kinetic).
    public var staticFriction: Double
    public var kineticFriction: Double
    /// Viscous friction (bearings, air), N·m·s/rad.
    public var viscousFriction: Double
    /// The eccentric mass, g, its eccentricity, mm, and the motor's own mass, g.
    public var eccentricMassG: Double
    public var eccentricityMm: Double
    public var motorMassG: Double

    public init(supplyVolts: Double, resistanceOhm: Double, inductanceH: Double, torqueConstant: Double,
                inertia: Double, staticFriction: Double, kineticFriction: Double, viscousFriction: Double,
                eccentricMassG: Double, eccentricityMm: Double, motorMassG: Double) {
        self.supplyVolts = supplyVolts
        self.resistanceOhm = resistanceOhm
        self.inductanceH = inductanceH
        self.torqueConstant = torqueConstant
        self.inertia = inertia
        self.staticFriction = staticFriction
        self.kineticFriction = kineticFriction
        self.viscousFriction = viscousFriction
        self.eccentricMassG = eccentricMassG
        self.eccentricityMm = eccentricityMm
        self.motorMassG = motorMassG
    }

    enum CodingKeys: String, CodingKey {
        case supplyVolts = "supply_v", resistanceOhm = "resistance_ohm", inductanceH = "inductance_h"
        case torqueConstant = "torque_constant_nm_per_a", inertia = "inertia_kg_m2"
        case staticFriction = "static_friction_nm", kineticFriction = "kinetic_friction_nm"
        case viscousFriction = "viscous_friction_nm_s", eccentricMassG = "eccentric_mass_g"
        case eccentricityMm = "eccentricity_mm", motorMassG = "motor_mass_g"
    }

    /// Mechanical time constant J·R / (k² + b·R), s: the rotor speed's first-order lag (the winding's L/R is
    /// microseconds and left out).
    public var mechanicalTau: Double {
        inertia * resistanceOhm / (torqueConstant * torqueConstant + viscousFriction * resistanceOhm)
    }

    /// Steady speed at `drive` (0...1), rad/s: k·V·d/R = (k²/R + b)·ω + T_kinetic; 0 below the kinetic offset.
    public func steadySpeed(drive: Double) -> Double {
        let k = torqueConstant, r = resistanceOhm
        let w = (k * supplyVolts * drive / r - kineticFriction) / (k * k / r + viscousFriction)
        return max(0, w)
    }

    /// The drive a resting rotor needs to break free (static friction over stall torque): the shaping model's
    /// start threshold.
    public var startDrive: Double { staticFriction * resistanceOhm / (torqueConstant * supplyVolts) }

    /// The drive below which a turning rotor stops (kinetic friction): the shaping model's stop threshold.
    public var stopDrive: Double { kineticFriction * resistanceOhm / (torqueConstant * supplyVolts) }

    /// Acceleration of the mounting, g, at speed `omega` (rad/s): m·e·ω² / M_total.
    public func accelerationG(omega: Double, mountingG: Double) -> Double {
        let m = eccentricMassG / 1000, e = eccentricityMm / 1000
        let total = (mountingG + motorMassG) / 1000
        return m * e * omega * omega / total / 9.80665
    }
}
