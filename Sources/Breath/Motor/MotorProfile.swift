// A motor as the renderer knows it: kind and physics parameters, with the model and tap length they imply.
// SPDX-License-Identifier: Apache-2.0

/// What the renderer assumes about the motor.
public enum MotorProfile: Sendable, Equatable {
    case erm(ERMModel)
    case lra(LRAModel)

    /// The reference ERM of the fidelity target: 80 ms time constant, 15 % start threshold.
    public static let referenceERM = MotorProfile.erm(ERMModel(riseTau: 0.080, fallTau: 0.080, startThreshold: 0.15))
    public static let referenceLRA = MotorProfile.lra(LRAModel())

    /// How long a tap's intended pulse lasts: an ERM needs 20-40 ms to be felt, an LRA 10-20 ms;
    /// sharper taps are shorter.
    public func tapSeconds(sharpness: Double) -> Double {
        switch self {
        case .erm: return 0.040 - 0.020 * sharpness
        case .lra: return 0.020 - 0.010 * sharpness
        }
    }

    public var name: String {
        switch self {
        case .erm: "erm"
        case .lra: "lra"
        }
    }
}

extension ERMModel: Equatable {
    public static func == (a: ERMModel, b: ERMModel) -> Bool {
        a.riseTau == b.riseTau && a.fallTau == b.fallTau && a.brakeTau == b.brakeTau
            && a.startThreshold == b.startThreshold && a.stopThreshold == b.stopThreshold
    }
}

extension LRAModel: Equatable {
    public static func == (a: LRAModel, b: LRAModel) -> Bool {
        a.tau == b.tau && a.resonanceHz == b.resonanceHz && a.quality == b.quality && a.carrierHz == b.carrierHz
    }
}
