// The calibration as a pure state machine: the tasks in order, one staircase each, the stimulus of the
// next trial, the answers, and the measured values. No clock, no I/O: a terminal, a test or the
// simulated person drives it the same way.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Drive levels used by the stimuli.
public enum StimulusLevels {
    /// The spin-up before a stop-threshold trial (well above any start threshold).
    public static let spinUp = 0.6
    public static let spinUpSeconds = 0.25
    /// A felt-threshold trial's bump: this multiple of the measured start threshold, for this long.
    public static let bumpFactor = 1.5
    public static let bumpSeconds = 0.1
}

/// The calibration as a pure state machine: the tasks in order (the motor's start and stop thresholds and
/// its lag, then the felt threshold on the spot and the comfortable maximum; an LRA only the last two), one
/// ``Staircase`` each, the stimulus of the next trial, the answers, and the measured values. No clock and no I/O: a terminal, a test or a simulated
/// person drives it the same way.
///
///     var procedure = CalibrationProcedure()
///     while let stimulus = procedure.stimulus {
///         play(stimulus)                        // the caller's motor
///         procedure.answer(yes: askPerson())    // the task's question
///     }
///     let found = procedure.results
public struct CalibrationProcedure: Sendable {
    /// The tasks this board's motor needs (an LRA has no start or stop threshold).
    public let tasks: [CalibrationTask]
    /// Index of the current task in ``tasks``, its staircase, and the results of the finished tasks.
    public private(set) var taskIndex = 0
    public private(set) var staircase: Staircase
    public private(set) var results: [CalibrationTask: StaircaseResult] = [:]

    /// `lra`: the motor has no start or stop threshold (the motor tasks are skipped).
    public init(lra: Bool = false) {
        tasks = lra ? [.feltThreshold, .comfortMax] : CalibrationTask.allCases
        staircase = Staircase(CalibrationProcedure.rule(for: tasks[0], results: [:]))
    }

    /// Every task has its result.
    public var done: Bool { taskIndex >= tasks.count }
    /// The task of the next trial (nil when done).
    public var task: CalibrationTask? { done ? nil : tasks[taskIndex] }
    /// The level of the next trial.
    public var level: Double { staircase.level }
    /// Trials answered so far, over all tasks.
    public var trials: Int { results.values.reduce(0) { $0 + $1.trials } + (done ? 0 : staircase.trials) }

    /// The stimulus of the next trial.
    public var stimulus: Stimulus? {
        guard let task else { return nil }
        return CalibrationProcedure.stimulus(for: task, level: level, results: results)
    }

    /// Records the answer to the current trial: `yes` to the task's question.
    public mutating func answer(yes: Bool) {
        guard !done else { return }
        staircase.answer(positive: yes)
        guard staircase.done else { return }
        results[tasks[taskIndex]] = staircase.result
        taskIndex += 1
        if !done { staircase = Staircase(CalibrationProcedure.rule(for: tasks[taskIndex], results: results)) }
    }

    /// The staircase of `task`, placed by what earlier tasks found.
    static func rule(for task: CalibrationTask, results: [CalibrationTask: StaircaseResult]) -> StaircaseRule {
        switch task {
        case .motorStart:
            return StaircaseRule(start: 0.35, step: 0.08, minStep: 0.005, low: 0, high: 0.8)
        case .motorLag:
            // Seconds of push, not a level.
            return StaircaseRule(start: 0.08, step: 0.03, minStep: 0.002, low: 0.002, high: 0.4)
        case .motorStop:
            // A spinning motor holds down to below where it starts.
            let start = results[.motorStart]?.estimate ?? 0.35
            return StaircaseRule(start: start * 0.7, step: 0.04, minStep: 0.003, low: 0, high: max(start, 0.05))
        case .feltThreshold:
            let start = results[.motorStart]?.estimate ?? 0.2
            return StaircaseRule(start: max(start, 0.2), step: 0.05, minStep: 0.003, low: 0, high: 0.8)
        case .comfortMax:
            let felt = results[.feltThreshold]?.estimate ?? 0.05
            return StaircaseRule(start: max(0.5, felt + 0.1), step: 0.15, minStep: 0.025, low: min(felt + 0.05, 1), high: 1)
        }
    }

    /// The spin-up task's push (30 % above the measured start threshold, so a start threshold measured a
    /// little low still starts the motor) and hold (between the stop and start thresholds: a resting motor
    /// stays at rest, a turning one keeps turning).
    static func lagLevels(_ results: [CalibrationTask: StaircaseResult]) -> (push: Double, hold: Double) {
        let start = results[.motorStart]?.estimate ?? 0.2
        let stop = min(results[.motorStop]?.estimate ?? start / 3, start)
        return (min(1, 1.3 * start), (start + stop) / 2)
    }

    /// The motor's time constant from the spin-up task: a first-order rise from rest toward the push level
    /// P reaches the stop threshold S after the shortest push D, so tau = D / -ln(1 - S / P). Model-based:
    /// it assumes the ERM model's rise (nil until the task is done).
    public var lagSeconds: Double? {
        guard let lag = results[.motorLag], let stop = results[.motorStop]?.estimate else { return nil }
        // A staircase that never turned, or sat at its longest push, found no spin-up time (the push did
        // not start the motor): no lag rather than a wrong one.
        let rule = CalibrationProcedure.rule(for: .motorLag, results: results)
        guard lag.converged, lag.estimate < rule.high - 2 * rule.step else { return nil }
        let d = lag.estimate
        let push = CalibrationProcedure.lagLevels(results).push
        guard stop > 0, stop < push else { return nil }
        let tau = d / -log(1 - stop / push)
        return CalibrationProfile.lagRange.contains(tau) ? tau : nil  // beyond it: no real ERM, no measurement
    }

    /// What a trial of `task` at `level` plays.
    public static func stimulus(for task: CalibrationTask, level: Double,
                                results: [CalibrationTask: StaircaseResult]) -> Stimulus {
        typealias S = Stimulus.Segment
        switch task {
        case .motorStart:
            return Stimulus(segments: [S(level, 1.0)], judgedSeconds: 0.5)
        case .motorStop:
            return Stimulus(segments: [S(StimulusLevels.spinUp, StimulusLevels.spinUpSeconds), S(level, 1.25)], judgedSeconds: 0.5)
        case .motorLag:
            let p = lagLevels(results)
            return Stimulus(segments: [S(p.push, level), S(p.hold, 1.0)], judgedSeconds: 0.5)
        case .feltThreshold:
            let start = results[.motorStart]?.estimate ?? 0.2
            let bump = min(max(StimulusLevels.bumpFactor * start, level), 1)
            return Stimulus(segments: [S(bump, StimulusLevels.bumpSeconds), S(level, 1.4)], judgedSeconds: 0.6)
        case .comfortMax:
            let start = results[.motorStart]?.estimate ?? 0.2
            let bump = min(max(StimulusLevels.bumpFactor * start, level), 1)
            return Stimulus(segments: [S(bump, StimulusLevels.bumpSeconds), S(level, 1.4)], judgedSeconds: 1.0)
        }
    }
}
