// How a session's frames are shaped for each board's motor: the motor model, the compensation, the warm-up,
// and the calibration profile (felt range, warm-up margin). Every default is written here, once.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Calibration
import MotorSession

/// Finds the calibration profile for a prepared board (its unique id and name), or nil: none saved, or
/// none asked for. Throws a one-line error for a profile asked for by name that cannot be read.
public typealias ProfileLookup = @Sendable (_ uniqueID: UInt64, _ boardName: String) throws -> CalibrationProfile?

/// What the caller asks of the shaping, the same for every board of a session; each board's own motor and
/// profile complete it once the board is prepared (``BoardShaping``).
///
///     var shaping = Shaping()
///     shaping.warmupSeconds = 0          // --no-warmup
///     shaping.motor = .referenceLRA      // --motor lra; nil: what the board's INFO says it drives
public struct Shaping: Sendable {
    /// An ERM is spun up to a faint floor for this long before the breath so the first cue is on time.
    public static let defaultWarmupSeconds = 0.3
    /// How far above the stop threshold the warm-up floor sits without a measured profile: the reference
    /// model's threshold is a guess, so it keeps a wider margin (a profile's is `CalibrationProfile.warmupMargin`).
    public static let uncalibratedWarmupMargin = 1.5

    /// The motor model (nil: the reference model of the kind the board reports).
    public var motor: MotorProfile?
    /// Shape for the motor's lag (overdrive, braking where the board can reverse); false sends the intended
    /// intensity as the duty.
    public var compensate = true
    /// The warm-up before the breath, s (0: none).
    public var warmupSeconds = Shaping.defaultWarmupSeconds
    /// Where a board's calibration profile comes from (nil: none is used).
    public var profiles: ProfileLookup?

    public init() {}

    /// The shaping of the board `prepared`: its profile (if one is found), the motor to shape for.
    public func forBoard(_ prepared: Prepared) throws -> BoardShaping {
        let base = motor ?? (prepared.info.motorKind == .lra ? .referenceLRA : .referenceERM)
        let calibrated = try profiles?(prepared.info.uniqueID, prepared.info.name.text)
        return BoardShaping(calibrated, motor: calibrated?.motor(or: base) ?? base, compensate: compensate, warmup: warmupSeconds)
    }
}

/// How one board's breath is shaped: its calibration profile (name, felt range) and its motor, the
/// compensation and the warm-up.
public struct BoardShaping: Sendable {
    /// The profile used (nil: none).
    public var calibrated: CalibrationProfile?
    public var feltRange: FeltRange?
    public var motor: MotorProfile
    public var compensate: Bool
    public var warmupSeconds: Double
    public var warmupMargin: Double

    /// Shaped for `motor`, with `calibrated`'s felt range and its warm-up margin.
    public init(_ calibrated: CalibrationProfile?, motor: MotorProfile, compensate: Bool = true,
                warmup: Double = Shaping.defaultWarmupSeconds) {
        self.calibrated = calibrated
        feltRange = calibrated?.feltRange
        self.motor = motor
        self.compensate = compensate
        warmupSeconds = warmup
        warmupMargin = calibrated == nil ? Shaping.uncalibratedWarmupMargin : CalibrationProfile.warmupMargin
    }

    /// The profile's name (board id and spot), for reports.
    public var profile: String? { calibrated?.name }
}

extension CalibrationProfile {
    /// The motor to shape for: this profile's, when it is for the same kind of motor as `fallback`.
    public func motor(or fallback: MotorProfile) -> MotorProfile {
        switch (fallback, motor) {
        case (.erm, "erm"), (.lra, "lra"): motorProfile
        default: fallback
        }
    }
}
