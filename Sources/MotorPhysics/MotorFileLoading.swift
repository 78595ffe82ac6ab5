// Reading a motor file: JSON decoded, every value checked, each failure one line naming the file and field.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Why a motor file was refused: one line, naming the file and what is wrong with it.
public struct MotorFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension MotorFile {
    /// Reads and checks a motor file; a missing file, bad JSON or an out-of-range value is one line.
    public static func load(path: String) throws(MotorFileError) -> MotorFile {
        let name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MotorFileError("motor file \(name): cannot be read")
        }
        return try decode(data, name: name)
    }

    /// Decodes and checks a motor file's JSON (`name` for the error lines).
    public static func decode(_ data: Data, name: String = "motor file") throws(MotorFileError) -> MotorFile {
        let file: MotorFile
        do {
            file = try JSONDecoder().decode(MotorFile.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw MotorFileError("motor file \(name): missing \(path(context.codingPath + [key]))")
        } catch let DecodingError.typeMismatch(_, context) {
            throw MotorFileError("motor file \(name): wrong type at \(path(context.codingPath))")
        } catch let DecodingError.valueNotFound(_, context) {
            throw MotorFileError("motor file \(name): null at \(path(context.codingPath))")
        } catch let DecodingError.dataCorrupted(context) {
            let at = context.codingPath.isEmpty ? "not JSON" : "bad value at \(path(context.codingPath))"
            throw MotorFileError("motor file \(name): \(at)")
        } catch {
            throw MotorFileError("motor file \(name): not a motor file")
        }
        if let problem = file.problem() { throw MotorFileError("motor file \(name): \(problem)") }
        return file
    }

    static func path(_ keys: [any CodingKey]) -> String { keys.map(\.stringValue).joined(separator: ".") }

    /// The first thing wrong with the values, or nil.
    public func problem() -> String? {
        func positive(_ v: Double, _ key: String) -> String? { v.isFinite && v > 0 ? nil : "\(key) must be > 0 (is \(v))" }
        if version != 1 { return "version \(version) is not 1" }
        if let p = positive(mountingG, "mounting_g") { return p }
        if let p = positive(sensor.rangeG, "sensor.rangeG") ?? positive(sensor.scaleMicroG, "sensor.scaleMicroG")
            ?? positive(sensor.maxRateHz, "sensor.maxRateHz") ?? positive(sensor.odrHz, "sensor.odrHz") { return p }
        if !(sensor.noiseG >= 0) { return "sensor.noiseG must be >= 0" }
        switch kind {
        case .erm:
            guard let e = erm else { return "kind erm needs an \"erm\" object" }
            let checks: [(Double, String)] = [
                (e.supplyVolts, "erm.supply_v"), (e.resistanceOhm, "erm.resistance_ohm"),
                (e.torqueConstant, "erm.torque_constant_nm_per_a"), (e.inertia, "erm.inertia_kg_m2"),
                (e.eccentricMassG, "erm.eccentric_mass_g"), (e.eccentricityMm, "erm.eccentricity_mm"),
            ]
            for (v, k) in checks { if let p = positive(v, k) { return p } }
            for (v, k) in [(e.inductanceH, "erm.inductance_h"), (e.kineticFriction, "erm.kinetic_friction_nm"),
                           (e.viscousFriction, "erm.viscous_friction_nm_s"), (e.motorMassG, "erm.motor_mass_g")] where !(v >= 0) {
                return "\(k) must be >= 0 (is \(v))"
            }
            if !(e.staticFriction >= e.kineticFriction) { return "erm.static_friction_nm must be >= kinetic_friction_nm" }
            if e.startDrive >= 1 { return "erm: static friction stalls the motor at full drive" }
        case .lra:
            guard let l = lra else { return "kind lra needs an \"lra\" object" }
            for (v, k) in [(l.resonanceHz, "lra.resonance_hz"), (l.quality, "lra.quality"),
                           (l.movingMassG, "lra.moving_mass_g"), (l.forceN, "lra.force_n")] {
                if let p = positive(v, k) { return p }
            }
            if !(l.motorMassG >= 0) { return "lra.motor_mass_g must be >= 0" }
            if let c = carrierHz, let p = positive(c, "carrier_hz") { return p }
        }
        return nil
    }

    /// The file as written to `hardware/motors/` (sorted keys, pretty).
    public func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }
}
