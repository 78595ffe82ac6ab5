// What motor identification found: the shaping model's parameters, the felt scale, and what they rest on.
// SPDX-License-Identifier: Apache-2.0

import Breath

/// The shaping model's parameters fitted to a measured motor (`MotorIdentification.identify`), the felt
/// scale (the full-drive steady amplitude, g, that felt amplitude 1 stands for) and, for an ERM, the drive
/// below which a turning rotor gives nothing (the kinetic offset: the model's stop threshold, and the floor a
/// `FeltRange` puts the breath above). Each figure with the samples it rests on.
public struct IdentifiedMotor: Sendable, Equatable, Codable {
    public var kind: MotorFile.Kind
    public var riseTau: Double?
    public var fallTau: Double?
    public var brakeTau: Double?
    public var startThreshold: Double?
    public var stopThreshold: Double?
    public var resonanceHz: Double?
    public var quality: Double?
    public var tau: Double?
    public var carrierHz: Double?
    /// Steady amplitude at full drive, g (for an LRA: at resonance).
    public var fullScaleG: Double
    /// Motor time the identification's recording lasted, s.
    public var motorSeconds: Double
    /// Samples each figure rests on, by name (rise, fall, brake, start, curve, sweep, tau).
    public var samples: [String: Int]

    /// The shaping model it amounts to (`MotorProfile` for the renderer, `Fidelity`, a calibration).
    public var profile: MotorProfile {
        switch kind {
        case .erm:
            return .erm(ERMModel(riseTau: riseTau ?? 0.08, fallTau: fallTau ?? 0.08, brakeTau: brakeTau ?? ERMModel().brakeTau,
                                 startThreshold: startThreshold ?? 0.15, stopThreshold: stopThreshold))
        case .lra:
            return .lra(LRAModel(tau: tau ?? 0.008, resonanceHz: resonanceHz ?? 175, quality: quality ?? 8,
                                 carrierHz: carrierHz ?? resonanceHz ?? 175))
        }
    }

    /// An ERM's felt floor: the breath's intensities placed above the kinetic offset, so that the steady
    /// felt amplitude (rotor speed) equals the intended one. Nil for an LRA (no offset).
    public var feltRange: FeltRange? {
        guard kind == .erm, let floor = stopThreshold, floor > 0 else { return nil }
        return FeltRange(floor: floor, ceiling: 1)
    }

    /// The calibration profile's lag (`CalibrationProfile.lagSeconds`): the ERM's rise time constant, the
    /// LRA's envelope tau.
    public var lagSeconds: Double { (kind == .erm ? riseTau : tau) ?? 0 }
}
