// An ERM simulated as a DC motor turning an eccentric mass on a mounting: winding, rotor, friction, shaking.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// An ERM as physics, not as the shaping model: the winding's current (L·di/dt = V·d − R·i − k·ω), the
/// rotor (J·dω/dt = k·i − b·ω − friction, held by static friction until the torque breaks it free) and the
/// eccentric mass's centripetal force on the mounting, m·e·ω² / M, turning with the rotor in the x-y
/// plane. Amplitude and frequency both follow the speed. Reverse drive is an H-bridge's reversed voltage: it
/// brakes, and held long enough spins the rotor backwards. Zero drive shorts the winding (the bridge's
/// brake mode), so the back-EMF brakes the coasting rotor too.
///
/// Integration: the current exactly over each sub-step (its L/R is microseconds), the speed semi-implicitly
/// (viscous term implicit), sub-steps at most `maxStepSeconds` (1/20 of the fastest turn, τ/20).
public struct PhysicalERM: PhysicalMotor {
    public let physics: ERMPhysics
    /// What it is strapped to, g.
    public let mountingG: Double
    /// Winding current, A; rotor speed, rad/s; rotor angle, rad.
    public private(set) var current = 0.0
    public private(set) var omega = 0.0
    public private(set) var angle = 0.0

    public init(physics: ERMPhysics, mountingG: Double) {
        self.physics = physics
        self.mountingG = mountingG
    }

    public var maxStepSeconds: Double {
        let noLoad = physics.supplyVolts / physics.torqueConstant  // rad/s, an upper bound on the speed
        return min(2 * Double.pi / noLoad / 20, physics.mechanicalTau / 20)
    }

    public var acceleration: SIMD3<Double> {
        let a = physics.accelerationG(omega: omega, mountingG: mountingG)
        return SIMD3(a * cos(angle), a * sin(angle), 0)
    }

    public mutating func advance(drive: Double, seconds: Double) {
        guard seconds > 0 else { return }
        let steps = max(1, Int((seconds / maxStepSeconds).rounded(.up)))
        let h = seconds / Double(steps)
        let volts = physics.supplyVolts * min(max(drive, -1), 1)
        let p = physics
        let decay = p.inductanceH > 0 ? exp(-h * p.resistanceOhm / p.inductanceH) : 0
        for _ in 0..<steps {
            let target = (volts - p.torqueConstant * omega) / p.resistanceOhm
            current = target + (current - target) * decay
            let torque = p.torqueConstant * current
            if omega == 0 {
                guard abs(torque) > p.staticFriction else { continue }  // held by static friction
                let w = h * (torque - p.kineticFriction * (torque > 0 ? 1 : -1)) / p.inertia
                omega = w / (1 + h * p.viscousFriction / p.inertia)
            } else {
                let sign: Double = omega > 0 ? 1 : -1
                let w = (omega + h * (torque - p.kineticFriction * sign) / p.inertia) / (1 + h * p.viscousFriction / p.inertia)
                // Crossing zero: friction stops the rotor there unless the torque breaks it free the other way.
                omega = (w * sign <= 0 && abs(torque) <= p.staticFriction) ? 0 : w
            }
            angle += omega * h
            if abs(angle) > 1e6 { angle = angle.truncatingRemainder(dividingBy: 2 * .pi) }
        }
    }
}
