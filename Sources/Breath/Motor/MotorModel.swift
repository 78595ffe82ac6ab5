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
/// Reverse drive d < 0 brakes: the decay rate grows by |d| / brakeTau.
public struct ERMModel: MotorModel {
    public var riseTau: Double
    public var fallTau: Double
    public var brakeTau: Double
    public var startThreshold: Double
    public var stopThreshold: Double
    public internal(set) var amplitude: Double = 0

    public init(riseTau: Double = 0.080, fallTau: Double = 0.060, brakeTau: Double = 0.012,
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
            amplitude *= exp(-seconds * (1 / fallTau + min(-drive, 1) / brakeTau))
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
