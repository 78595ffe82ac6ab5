// A motor file: the physical motor, its mounting and accelerometer, and where the numbers come from (JSON).
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A motor file (`hardware/motors/*.json`): an ERM's or an LRA's physical parameters, the mass it is
/// strapped to, the accelerometer on that mounting and the source of the figures (part number, datasheet
/// figures used, which values are typical rather than published). The simulated board builds its
/// `PhysicalMotor` from it, so a bench measures a motor that is not the renderer's shaping model.
///
///     let file = try MotorFile.load(path: "hardware/motors/erm-coin-10mm.json")
///     var motor = file.makeMotor()
public struct MotorFile: Sendable, Equatable, Codable {
    /// Which physics the file describes: an eccentric rotating mass or a linear resonant actuator.
    public enum Kind: String, Sendable, Codable { case erm, lra }

    /// The file format's version.
    public var version = 1
    public var name: String
    public var kind: Kind
    public var erm: ERMPhysics?
    public var lra: LRAPhysics?
    /// The mounting the motor is fixed on (a test sled, a wristband), g.
    public var mountingG: Double
    public var sensor: AccelerometerSpec
    /// The board's carrier for an LRA, Hz (nil: at the motor's resonance).
    public var carrierHz: Double?
    /// Where the figures come from: part, datasheet figures used, what is typical rather than published.
    public var source: String

    public init(name: String, erm: ERMPhysics, mountingG: Double = 100, sensor: AccelerometerSpec = AccelerometerSpec(),
                source: String) {
        self.name = name
        kind = .erm
        self.erm = erm
        self.mountingG = mountingG
        self.sensor = sensor
        self.source = source
    }

    public init(name: String, lra: LRAPhysics, mountingG: Double = 100, sensor: AccelerometerSpec = AccelerometerSpec(),
                carrierHz: Double? = nil, source: String) {
        self.name = name
        kind = .lra
        self.lra = lra
        self.mountingG = mountingG
        self.sensor = sensor
        self.carrierHz = carrierHz
        self.source = source
    }

    enum CodingKeys: String, CodingKey {
        case version, name, kind, erm, lra, sensor, source
        case mountingG = "mounting_g", carrierHz = "carrier_hz"
    }

    /// The physical motor at rest (a file that passed `validate()`).
    public func makeMotor() -> any PhysicalMotor {
        switch kind {
        case .erm: return PhysicalERM(physics: erm!, mountingG: mountingG)
        case .lra: return PhysicalLRA(physics: lra!, mountingG: mountingG, carrierHz: carrierHz)
        }
    }

    /// The board's carrier for this motor, Hz (an ERM has none: nil).
    public var boardCarrierHz: Double? {
        kind == .lra ? (carrierHz ?? lra?.resonanceHz) : nil
    }
}
