// Physical motor models: drive level in, felt vibration amplitude out (ERM lag + stall + braking, LRA follower).
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Turns a drive level (-1...1, negative = reverse) held over time into felt amplitude 0...1.
public protocol MotorModel: Sendable {
    /// Felt amplitude now.
    var amplitude: Double { get }
    /// Advances the model by `seconds` with `drive` applied the whole time.
    mutating func advance(drive: Double, seconds: Double)
}

/// Eccentric rotating mass. Spin speed (felt amplitude) follows the drive with a first-order lag
/// (rise and fall time constants). A resting rotor needs at least `startThreshold` to start (static
/// friction); a spinning one keeps going down to `stopThreshold` (kinetic friction), below which it stalls.
/// Reverse drive d < 0 brakes as a DC motor's reversed voltage does: a constant reverse torque on top of the
/// rotor's own damping, da/dt = −a / fallTau − |d| / brakeTau, until the rotor stops (the shaper never holds
/// it on long enough to turn it backwards). A brake proportional to the speed instead (the model before)
/// fades out just where a real rotor stops: the bench measured such a model's braking 10 times too fast.
public struct ERMModel: MotorModel {
    public var riseTau: Double
    public var fallTau: Double
    /// Full reverse drive's own deceleration, as the seconds it alone would take to stop a rotor at full
    /// speed (the damping of `fallTau` comes on top).
    public var brakeTau: Double
    public var startThreshold: Double
    public var stopThreshold: Double
    public internal(set) var amplitude: Double = 0

    public init(riseTau: Double = 0.080, fallTau: Double = 0.060, brakeTau: Double = 0.040,
                startThreshold: Double = 0.15, stopThreshold: Double? = nil) {
        self.riseTau = riseTau
        self.fallTau = fallTau
        self.brakeTau = brakeTau
        self.startThreshold = startThreshold
        self.stopThreshold = stopThreshold ?? startThreshold / 3
    }

    public var spinning: Bool { amplitude >= stopThreshold }

    public mutating func advance(drive: Double, seconds: Double) {
        guard seconds > 0 else { return }
        advance(drive: drive, seconds: seconds, riseFactor: exp(-seconds / riseTau), fallFactor: exp(-seconds / fallTau))
    }

    /// The same step with exp(-seconds / riseTau) and exp(-seconds / fallTau) precomputed (the renderer's hot path).
    @inline(always)
    mutating func advance(drive: Double, seconds: Double, riseFactor: Double, fallFactor: Double) {
        if drive < 0 {
            // da/dt = −a / fallTau − b / brakeTau: heads for −b·fallTau/brakeTau with fallTau, stops at 0.
            let reverse = min(-drive, 1) * fallTau / brakeTau
            amplitude = max(0, (amplitude + reverse) * fallFactor - reverse)
            return
        }
        let target = (!spinning && drive < startThreshold) ? 0 : min(drive, 1)
        let e = target > amplitude ? riseFactor : fallFactor
        amplitude = target + (amplitude - target) * e
    }
}

/// Linear resonant actuator driven by the board's carrier: amplitude follows the drive envelope
/// with a short time constant, scaled by how close the carrier is to resonance.
public struct LRAModel: MotorModel {
    public var tau: Double
    public var resonanceHz: Double
    public var quality: Double
    public var carrierHz: Double
    public internal(set) var amplitude: Double = 0

    public init(tau: Double = 0.008, resonanceHz: Double = 175, quality: Double = 8, carrierHz: Double = 175) {
        self.tau = tau
        self.resonanceHz = resonanceHz
        self.quality = quality
        self.carrierHz = carrierHz
    }

    /// Amplitude gain of the resonator at the carrier frequency (1 at resonance).
    public var resonanceGain: Double {
        let r = carrierHz / resonanceHz - resonanceHz / carrierHz
        return 1 / (1 + quality * quality * r * r).squareRoot()
    }

    public mutating func advance(drive: Double, seconds: Double) {
        guard seconds > 0 else { return }
        let target = min(abs(drive), 1) * resonanceGain
        amplitude = target + (amplitude - target) * exp(-seconds / tau)
    }
}
