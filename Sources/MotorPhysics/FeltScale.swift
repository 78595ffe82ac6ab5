// From measured vibration amplitude to the shaping model's felt amplitude 0...1.
// SPDX-License-Identifier: Apache-2.0

/// The shaping model's amplitude is an ERM's spin speed and an LRA's displacement, both as a fraction of
/// full drive's. A mounting's acceleration grows with the speed squared for an ERM (m·e·ω²) and linearly
/// with displacement for an LRA at a fixed frequency, so felt = √(g / full) for an ERM and g / full for an
/// LRA, `full` being the steady amplitude at full drive (for an LRA at resonance).
public struct FeltScale: Sendable, Equatable {
    public var kind: MotorFile.Kind
    public var fullScaleG: Double

    public init(kind: MotorFile.Kind, fullScaleG: Double) {
        self.kind = kind
        self.fullScaleG = fullScaleG
    }

    public func felt(_ g: Double) -> Double {
        let r = max(0, g) / fullScaleG
        return kind == .erm ? r.squareRoot() : r
    }
}
