// The shaping model's brake tau for a measured ERM: the one with which the renderer's braking, played on the
// rotor as identified, stops it best.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation

/// An ERM's rotor as identification finds it, in felt units w = ω/ω_full (−1...1): first order with time
/// constant `tau` toward (d − floor·sign w)/(1 − floor) while turning (the DC motor's law with Coulomb
/// friction), held at rest by static friction while |d| < `start`. Reverse drive brakes it additively and,
/// held on, turns it backwards (the shaping model stops at 0: the shaper never holds a brake that long).
public struct IdentifiedRotor: Sendable {
    public var tau: Double
    public var floor: Double
    public var start: Double
    public var w = 0.0

    public init(tau: Double, floor: Double, start: Double) {
        self.tau = tau
        self.floor = floor
        self.start = start
    }

    public mutating func advance(drive d: Double, seconds: Double) {
        if w == 0 && abs(d) <= start { return }
        let sign: Double = w != 0 ? (w > 0 ? 1 : -1) : (d > 0 ? 1 : -1)
        let target = (d - floor * sign) / (1 - floor)
        let next = target + (w - target) * exp(-seconds / tau)
        w = (next * sign <= 0 && abs(d) <= start) ? 0 : next
    }
}

/// Both the model and the rotor brake by a constant reverse torque, but the model's fall is a fit (the
/// rotor's Coulomb friction folded into `fallTau`), so brake tau (about (1 − floor)·τ on the rotor's law) is
/// chosen for what it does: the renderer (i16, braking) plays a step of 0.8 held 1 s then silence, shaped
/// with each candidate, on the `IdentifiedRotor`, and the one with the least squared felt error wins (grid
/// and golden section, deterministic). Too weak a brake in the model turns the rotor backwards, too strong
/// leaves it coasting.
public enum BrakeFit {
    /// The brake tau for a rotor identified with these parameters.
    public static func brakeTau(riseTau: Double, fallTau: Double, floor: Double, start: Double, frameRate: Int = 250) -> Double {
        let rotor = IdentifiedRotor(tau: riseTau, floor: floor, start: start)
        return ScalarFit.minimise(0.002, 0.5) { bt in
            error(model: ERMModel(riseTau: riseTau, fallTau: fallTau, brakeTau: bt, startThreshold: start, stopThreshold: floor),
                  rotor: rotor, frameRate: frameRate)
        }
    }

    /// Squared felt error (sum over frames) of the step of 0.8 for 1 s then silence, shaped for `model` (with
    /// its stop threshold as the felt floor) and played on `rotor`.
    public static func error(model: ERMModel, rotor start: IdentifiedRotor, frameRate: Int = 250) -> Double {
        let pattern = HapticPattern(events: [.continuous(at: 0, duration: 1.0, intensity: 0.8, sharpness: 0.3)])
        let dt = 1 / Double(frameRate)
        let range = model.stopThreshold > 0 ? FeltRange(floor: model.stopThreshold, ceiling: 1) : nil
        var renderer = FrameRenderer(pattern: pattern, duration: 1.6, frameRate: frameRate, resolution: .i16,
                                     motor: .erm(model), compensate: true, feltRange: range)
        var rotor = start
        var err = 0.0, k = 0
        for frame in renderer.renderDetailed(count: Int(1.6 * Double(frameRate))) {
            rotor.advance(drive: frame.drive, seconds: dt)
            k += 1
            let intended = Double(k) * dt <= 1.0 ? 0.8 : 0
            err += (intended - abs(rotor.w)) * (intended - abs(rotor.w))
        }
        return err
    }
}
