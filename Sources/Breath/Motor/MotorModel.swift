// Physical motor models: drive level in, felt vibration amplitude out (ERM lag + stall, LRA follower).

import Foundation

/// Turns a drive level (-1...1, negative = reverse) held over time into felt amplitude 0...1.
public protocol MotorModel: Sendable {
    /// Felt amplitude now.
    var amplitude: Double { get }
    /// Advances the model by `seconds` with `drive` applied the whole time.
    mutating func advance(drive: Double, seconds: Double)
}

/// Eccentric rotating mass: spin speed follows the drive with a first-order lag; below the start
/// threshold a resting rotor does not start (and a spinning one coasts down); reverse drive brakes.
public struct ERMModel: MotorModel {
    public var riseTau: Double
    public var fallTau: Double
    public var brakeTau: Double
    public var startThreshold: Double
    public private(set) var amplitude: Double = 0

    public init(riseTau: Double = 0.080, fallTau: Double = 0.060, brakeTau: Double = 0.015,
                startThreshold: Double = 0.15) {
        self.riseTau = riseTau
        self.fallTau = fallTau
        self.brakeTau = brakeTau
        self.startThreshold = startThreshold
    }

    public mutating func advance(drive: Double, seconds: Double) {
        guard seconds > 0 else { return }
        let target: Double
        let tau: Double
        if drive < 0 {
            target = 0
            tau = brakeTau
        } else if drive < startThreshold && amplitude < startThreshold {
            target = 0  // stalled rotor: not enough torque to start
            tau = fallTau
        } else {
            target = min(drive, 1)
            tau = target > amplitude ? riseTau : fallTau
        }
        amplitude = target + (amplitude - target) * exp(-seconds / tau)
    }
}

/// Linear resonant actuator driven by the board's carrier: amplitude follows the drive envelope
/// with a short time constant, scaled by how close the carrier is to resonance.
public struct LRAModel: MotorModel {
    public var tau: Double
    public var resonanceHz: Double
    public var quality: Double
    public var carrierHz: Double
    public private(set) var amplitude: Double = 0

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
