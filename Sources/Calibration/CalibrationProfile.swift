// A calibration's result as saved: per board (its unique id from INFO) and body spot, the motor's start
// and stop thresholds, the felt range on the spot, the motor's lag and where that number came from.
// SPDX-License-Identifier: Apache-2.0

import Breath

/// A calibration's result as saved, per board (its unique id from INFO) and body spot: the motor's start and
/// stop thresholds, the felt threshold and comfortable maximum on the spot, the motor's lag and where that
/// number came from, and each staircase's result. Saved by ``ConfigStore`` as JSON under its ``name``; the
/// renderer uses its ``motorProfile``.
///
///     var rig = SimulatedRig.random(seed: 7)
///     let profile = rig.profile(board: CalibrationProfile.boardID(0x1234), boardName: "sim", spot: "wrist")
///     print(profile.feltThreshold, profile.comfortMax, profile.motorProfile)
public struct CalibrationProfile: Sendable, Equatable, Codable {
    /// The file format's version.
    public var version = 1
    /// The board's unique id (INFO), 16 hex digits, and its name.
    public var board: String
    public var boardName: String
    /// Body spot: wrist, palm, abdomen...
    public var spot: String
    /// erm or lra.
    public var motor: String
    /// Drive levels, fraction of the board's full scale (its drive ceiling when it has one).
    public var startThreshold: Double
    public var stopThreshold: Double
    public var feltThreshold: Double
    public var comfortMax: Double
    /// The motor's time constant (rise and fall), seconds, and how it was found: "spin-up task" (from
    /// the shortest push that starts the motor, as the person felt it, through the ERM model's first-order
    /// rise), "model" (a simulated motor's model) or "reference" (the reference motor's, not measured; the
    /// board cannot measure back-EMF today).
    public var lagSeconds: Double
    public var lagSource: String
    /// Measured through the board's accelerometer (`bench --vibration --save-profile`): the fall and brake time
    /// constants, seconds, where they differ from the lag (nil in a profile without them: the lag serves).
    public var fallSeconds: Double?
    public var brakeSeconds: Double?
    /// Each staircase: estimate, spread, reversals, trials.
    public var staircases: [String: StaircaseResult]
    /// When it was made (ISO 8601, as the caller gives it).
    public var created: String

    /// A profile from measured values (levels as fractions of the board's full scale, the lag in seconds).
    public init(board: String, boardName: String, spot: String, motor: String, startThreshold: Double,
                stopThreshold: Double, feltThreshold: Double, comfortMax: Double, lagSeconds: Double,
                lagSource: String, staircases: [String: StaircaseResult] = [:], created: String = "") {
        self.board = board
        self.boardName = boardName
        self.spot = spot
        self.motor = motor
        self.startThreshold = startThreshold
        self.stopThreshold = stopThreshold
        self.feltThreshold = feltThreshold
        self.comfortMax = comfortMax
        self.lagSeconds = lagSeconds
        self.lagSource = lagSource
        self.staircases = staircases
        self.created = created
    }

    enum CodingKeys: String, CodingKey {
        case version, board, spot, motor, staircases, created
        case boardName = "board_name", startThreshold = "start_threshold", stopThreshold = "stop_threshold"
        case feltThreshold = "felt_threshold", comfortMax = "comfort_max", lagSeconds = "lag_s", lagSource = "lag_source"
        case fallSeconds = "fall_s", brakeSeconds = "brake_s"
    }

    /// The profile's name, and its file's stem: board id and spot.
    public var name: String { CalibrationProfile.name(board: board, spot: spot) }

    /// The profile name for a board id and a spot: "<board>-<spot>".
    public static func name(board: String, spot: String) -> String { "\(board)-\(spot)" }

    /// The board's unique id as a profile's board field.
    public static func boardID(_ uniqueID: UInt64) -> String {
        let hex = String(uniqueID, radix: 16)
        return String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }

    /// A measured lag is taken 10 % longer by the shaper: a model even a little faster than the motor
    /// believes a kicked rotor turns before it does, stops kicking, and the motor stalls until the breath
    /// is strong enough to start it: the inhale starts far too late. A model a little slower only starts it
    /// slightly early, so erring long is the safe side. The spin-up task's error is a few %, so the margin
    /// covers it.
    public static let lagSafety = 1.1

    /// The motor the shaper assumes: the measured thresholds and lag (an LRA keeps its model).
    public var motorProfile: MotorProfile {
        if motor == "lra" { return .referenceLRA }
        let tau = lagSource == CalibrationProfile.lagFromTask ? lagSeconds * CalibrationProfile.lagSafety : lagSeconds
        let reference = ERMModel()
        return .erm(ERMModel(riseTau: tau, fallTau: fallSeconds ?? tau, brakeTau: brakeSeconds ?? reference.brakeTau,
                             startThreshold: startThreshold, stopThreshold: min(stopThreshold, startThreshold)))
    }

    /// The warm-up floor over the stop threshold: the threshold was measured, so a small margin keeps the
    /// rotor turning while the floor stays faint (the model's guess takes 1.5).
    public static let warmupMargin = 1.15

    /// Intensity 0...1 mapped onto [felt threshold, comfortable maximum].
    public var feltRange: FeltRange { FeltRange(floor: feltThreshold, ceiling: comfortMax) }

    /// The spin-up task's label.
    public static let lagFromTask = "spin-up task"

    /// The measured values from a finished procedure; the lag from its spin-up task when it has one,
    /// else `lagSeconds` with `lagSource`.
    public init(procedure: CalibrationProcedure, board: String, boardName: String, spot: String, lra: Bool,
                lagSeconds: Double = 0.080, lagSource: String = "reference", created: String = "") {
        let r = procedure.results
        var staircases: [String: StaircaseResult] = [:]
        for (task, result) in r { staircases[task.rawValue] = result }
        let start = r[.motorStart]?.estimate ?? 0
        let stop = min(r[.motorStop]?.estimate ?? 0, start)
        let felt = r[.feltThreshold]?.estimate ?? 0
        let comfort = max(r[.comfortMax]?.estimate ?? 1, felt)
        self.init(board: board, boardName: boardName, spot: spot, motor: lra ? "lra" : "erm", startThreshold: start,
                  stopThreshold: stop, feltThreshold: felt, comfortMax: comfort,
                  lagSeconds: procedure.lagSeconds ?? lagSeconds,
                  lagSource: procedure.lagSeconds == nil ? lagSource : CalibrationProfile.lagFromTask,
                  staircases: staircases, created: created)
    }
}
