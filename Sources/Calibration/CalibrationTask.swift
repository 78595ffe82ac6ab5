// The four measurements of a calibration, each a staircase: what the person does, what is asked, what
// each trial plays, and which answer means "the level is above the point".
// SPDX-License-Identifier: Apache-2.0

/// One measurement of the calibration.
public enum CalibrationTask: String, Sendable, CaseIterable, Codable {
    /// The weakest drive that starts the motor from rest (static friction).
    case motorStart = "motor_start"
    /// The weakest drive that keeps a spinning motor turning (it stalls below).
    case motorStop = "motor_stop"
    /// The shortest push that gets the motor turning: its spin-up time, from which its lag follows.
    case motorLag = "motor_lag"
    /// The weakest level felt on the body spot (a spinning motor held at it).
    case feltThreshold = "felt_threshold"
    /// The strongest level still comfortable for minutes on the body spot.
    case comfortMax = "comfort_max"

    /// Where the motor is while this task runs.
    public var touch: Touch {
        switch self {
        case .motorStart, .motorStop, .motorLag: .fingertips
        case .feltThreshold, .comfortMax: .spot
        }
    }

    /// The question asked after each trial (space or enter answers yes, n answers no).
    public var question: String {
        switch self {
        case .motorStart: "Did the motor start turning?"
        case .motorStop: "Is it still turning at the end?"
        case .motorLag: "Is it turning at the end?"
        case .feltThreshold: "Do you still feel it at the end?"
        case .comfortMax: "Too strong to feel for minutes?"
        }
    }

    /// What the person does before the task (one paragraph).
    public func instructions(spot: String) -> String {
        switch self {
        case .motorStart:
            "Hold the motor lightly between finger and thumb. Each trial tries to start it from rest; answer whether it started turning."
        case .motorStop:
            "Keep holding it between finger and thumb. Each trial spins the motor up, then slows it to a level; answer whether it still turns at the end."
        case .motorLag:
            "Keep holding it. Each trial gives a short push, then a level too weak to start the motor but strong enough to keep it turning; answer whether it turns at the end."
        case .feltThreshold:
            "Now place the motor on your \(spot), as you will wear it. Each trial gives a short bump, then a steady level; answer whether you still feel it at the end."
        case .comfortMax:
            "Keep it on your \(spot). Each trial plays a steady level; answer yes if it is too strong to feel for minutes, no if it is fine."
        }
    }

    /// The yes answer means the level is above the point (felt, turning) for thresholds; for the
    /// comfortable maximum, yes ("too strong") means above it too.
    public var name: String {
        switch self {
        case .motorStart: "motor start"
        case .motorStop: "motor stop"
        case .motorLag: "motor spin-up"
        case .feltThreshold: "felt threshold"
        case .comfortMax: "comfortable maximum"
        }
    }
}
