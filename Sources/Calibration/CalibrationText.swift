// What `motorbreath calibrate` says while it runs and when it ends: each task, trial and result of the run,
// the measured profile in one line, and the --json report. The console prints them; this says what.
// SPDX-License-Identifier: Apache-2.0

import Foundation

extension CalibrationRun.Event {
    /// The event as the console shows it: a task's heading and instructions, a trial's level (the answer
    /// follows on the same line), the answer, a task's result. Ends in a newline except for a trial.
    public func text(spot: String) -> String {
        switch self {
        case .task(let task, let number, let count):
            return "\n\(number)/\(count)  \(task.name): \(task.instructions(spot: spot))\n"
        case .trial(let trial, let level, let reversals, let needed):
            return "  trial \(trial)  level \(CalibrationProfile.percent(level))  reversals \(reversals)/\(needed)  "
        case .answered(let yes):
            return yes ? "yes\n" : "no\n"
        case .result(let task, let r):
            let p = CalibrationProfile.percent
            return "  \(task.name): \(p(r.estimate)) (spread \(p(r.spread)), \(r.reversals) reversals, \(r.trials) trials)\n"
        }
    }
}

extension CalibrationProfile {
    /// "12.5 %": a level 0...1 as calibrate prints it.
    public static func percent(_ x: Double) -> String { String(format: "%.1f %%", x * 100) }

    /// "felt 4.0...62.5 %, motor starts at 12.0 %": what play says of the profile it uses.
    public var feltRangeText: String {
        let f = { (x: Double) in String(format: "%.1f", x * 100) }
        return "felt \(f(feltThreshold))...\(f(comfortMax)) %, motor starts at \(f(startThreshold)) %"
    }

    /// The profile in one line: the motor's thresholds, the felt range on `spot`, the lag and where it came from.
    public func summary(spot: String) -> String {
        let p = CalibrationProfile.percent
        let lag = lagSource == CalibrationProfile.lagFromTask ? "from the spin-up time you felt" : "the reference motor's: not measured"
        return "motor starts at \(p(startThreshold)), stalls below \(p(stopThreshold)); felt on your \(spot) from \(p(feltThreshold)), comfortable up to \(p(comfortMax)); lag \(Int((lagSeconds * 1000).rounded())) ms (\(lag))"
    }
}

/// `calibrate --json`: the profile, where it was saved (nil: not saved), the trials it took, a simulated
/// person's hidden truth per task (with --simulate), and whether the motor was off at the end.
public struct CalibrationReport: Encodable {
    public var profile: CalibrationProfile
    public var path: String?
    public var trials: Int
    public var simulatedTruth: [String: Double]?
    public var motorOffAtExit: Bool

    enum CodingKeys: String, CodingKey {
        case profile, path, trials
        case simulatedTruth = "simulated_truth"
        case motorOffAtExit = "motor_off_at_exit"
    }

    /// The report of `procedure`'s `profile`; the hidden truth from `rig` when a simulated person answered.
    public init(profile: CalibrationProfile, path: String?, procedure: CalibrationProcedure, rig: SimulatedRig?, motorOffAtExit: Bool) {
        self.profile = profile
        self.path = path
        trials = procedure.trials
        simulatedTruth = rig.map { rig in Dictionary(uniqueKeysWithValues: procedure.tasks.map { ($0.rawValue, rig.truth($0)) }) }
        self.motorOffAtExit = motorOffAtExit
    }
}

extension ConfigStore {
    /// The saved profile `name`; missing, an error naming the folder and the profiles saved there.
    public func named(_ name: String) throws -> CalibrationProfile {
        if let found = try load(name) { return found }
        let saved = profileNames()
        let list = saved.count < 2 ? saved.joined() : saved.dropLast().joined(separator: ", ") + " or " + saved.last!
        throw ConfigError("no profile '\(name)' in \(directory.path)/profiles (\(saved.isEmpty ? "none saved yet: run motorbreath calibrate" : "saved: " + list))")
    }

    /// The profile a board with `uniqueID` uses on `spot`, if saved. An Arduino board (`boardName`
    /// motorbreath-avr-...) whose profile was saved under the id its firmware reported before (LegacyBoardID)
    /// gets that one, with a note to show.
    public func profile(forBoard uniqueID: UInt64, boardName: String, spot: String) throws -> (CalibrationProfile?, note: String?) {
        if let found = try load(CalibrationProfile.name(board: CalibrationProfile.boardID(uniqueID), spot: spot)) {
            return (found, nil)
        }
        guard boardName.hasPrefix("motorbreath-avr-") else { return (nil, nil) }
        let legacy = legacyAVRProfileNames(newID: uniqueID, spot: spot)
        guard legacy.count == 1, let found = try load(legacy[0]) else { return (nil, nil) }
        return (found, "using profile \(legacy[0]), saved under this board's earlier id (its firmware now reports \(CalibrationProfile.boardID(uniqueID))); motorbreath calibrate saves one under the new id")
    }
}
