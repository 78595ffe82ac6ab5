// The motor measured through the board's accelerometer, saved into the board's calibration profile.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorPhysics

extension CalibrationProfile {
    /// Where the lag came from when `bench --vibration` measured it.
    public static let lagFromAccelerometer = "accelerometer"

    /// This profile with the motor's part replaced by what the accelerometer measured (`MotorIdentification`:
    /// rise, fall and brake time constants, start and stop thresholds); the felt range, the person's part,
    /// is kept. An LRA's fit changes nothing here (its profile keeps the reference LRA).
    public func withMotor(_ m: IdentifiedMotor) -> CalibrationProfile {
        guard m.kind == .erm, let rise = m.riseTau else { return self }
        var p = self
        p.lagSeconds = rise
        p.lagSource = CalibrationProfile.lagFromAccelerometer
        p.fallSeconds = m.fallTau
        p.brakeSeconds = m.brakeTau
        if let start = m.startThreshold { p.startThreshold = start }
        if let stop = m.stopThreshold { p.stopThreshold = min(stop, p.startThreshold) }
        return p
    }
}

/// Saves a measured motor (`bench --vibration --save-profile SPOT`) into the board's profile for a body spot:
/// the profile calibrate saved there, its felt range kept, or a new one whose felt range is the whole drive
/// range (0...1) until `calibrate` measures the person. Every later play of that board and spot shapes its
/// frames for the measured motor.
public enum MeasuredMotorStore {
    public static func save(_ m: IdentifiedMotor, uniqueID: UInt64, boardName: String, spot: String,
                            store: ConfigStore = ConfigStore(),
                            created: String = ISO8601DateFormatter().string(from: Date())) throws -> (profile: CalibrationProfile, url: URL) {
        let board = CalibrationProfile.boardID(uniqueID)
        let old = try store.load(CalibrationProfile.name(board: board, spot: spot))
        let base = old ?? CalibrationProfile(board: board, boardName: boardName, spot: spot, motor: m.kind.rawValue,
                                             startThreshold: 0, stopThreshold: 0, feltThreshold: 0, comfortMax: 1,
                                             lagSeconds: 0.080, lagSource: "reference", created: created)
        let profile = base.withMotor(m)
        return (profile, try store.save(profile))
    }
}
