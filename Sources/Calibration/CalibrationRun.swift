// The calibration's trial loop on a board: each trial's stimulus played, answered by a person at the keys
// or a simulated person, fed to the procedure, until it is done, stopped or the answers run out.
// SPDX-License-Identifier: Apache-2.0

import MotorSession

/// An answer to a calibration trial (or to "ready?"): felt, not felt, or stop.
public enum TrialAnswer: Sendable, Equatable {
    case yes, no, quit
}

/// Who answers a calibration's trials: a person at the keys, or a ``SimulatedRig`` judging the board's
/// real output. `note` hears how the run goes (to print it); by default it hears nothing.
public protocol TrialAnswerer {
    /// Before a task's first trial (the person gets ready): `.yes` goes on; `.quit` or nil (no more answers) stops.
    mutating func ready(for task: CalibrationTask) -> TrialAnswer?
    /// The answer to one trial, given the board's output (nil on a real board); nil when the answers ran out.
    mutating func answer(_ task: CalibrationTask, stimulus: Stimulus, output: [(seconds: Double, drive: Double)]?) -> TrialAnswer?
    /// What happened in the run, as it happens.
    mutating func note(_ event: CalibrationRun.Event)
}

extension TrialAnswerer {
    public mutating func note(_ event: CalibrationRun.Event) {}
}

/// The calibration's trial loop on a board: plays each trial of a ``CalibrationProcedure`` through a
/// ``TrialPlayer``, asks a ``TrialAnswerer`` and feeds the answer to the procedure, until it is done.
///
///     var run = CalibrationRun(lra: false)
///     var rig = SimulatedRig(motor: motor, person: .random(seed: 1))
///     let end = try run.run(on: player, answerer: &rig, shouldStop: { false })
///     let profile = CalibrationProfile(procedure: run.procedure, board: id, boardName: name, spot: "wrist", lra: false, created: "")
public struct CalibrationRun {
    /// How a run ended.
    public enum End: Sendable, Equatable {
        /// Every task measured: `procedure` has its results.
        case done
        /// The person answered q.
        case quit
        /// The answers ran out (end of input).
        case noMoreAnswers
        /// `shouldStop` said so (a signal).
        case stopped
    }

    /// What the answerer hears as the run goes.
    public enum Event: Sendable {
        /// A task begins: its number (1-based) of how many.
        case task(CalibrationTask, number: Int, of: Int)
        /// A trial is about to play: its number in the task, the level, the reversals so far and needed.
        case trial(Int, level: Double, reversals: Int, of: Int)
        /// The trial's answer.
        case answered(yes: Bool)
        /// A task's staircase ended with this result.
        case result(CalibrationTask, StaircaseResult)
    }

    public private(set) var procedure: CalibrationProcedure

    /// A run of the whole procedure (an LRA board skips the motor tasks).
    public init(lra: Bool) { procedure = CalibrationProcedure(lra: lra) }

    /// Runs trials until the procedure is done, the answerer stops or `shouldStop` is true (checked after
    /// each trial plays). Errors are the session's (the board); the caller stops the motor.
    public mutating func run(on player: TrialPlayer, answerer: inout some TrialAnswerer,
                             shouldStop: () -> Bool) throws(SessionError) -> End {
        var shown: CalibrationTask?
        while let task = procedure.task, let stimulus = procedure.stimulus {
            if task != shown {
                shown = task
                answerer.note(.task(task, number: procedure.tasks.firstIndex(of: task)! + 1, of: procedure.tasks.count))
                let ready = answerer.ready(for: task)
                guard ready == .yes || ready == .no else { return ready == .quit ? .quit : .noMoreAnswers }
            }
            answerer.note(.trial(procedure.staircase.trials + 1, level: procedure.level,
                                 reversals: procedure.staircase.reversalLevels.count, of: procedure.staircase.rule.reversals))
            let output = try player.play(stimulus)
            if shouldStop() { return .stopped }
            let answer = answerer.answer(task, stimulus: stimulus, output: output)
            guard let answer, answer != .quit else { return answer == .quit ? .quit : .noMoreAnswers }
            answerer.note(.answered(yes: answer == .yes))
            procedure.answer(yes: answer == .yes)
            if let r = procedure.results[task], procedure.task != task { answerer.note(.result(task, r)) }
        }
        return .done
    }
}

extension SimulatedRig: TrialAnswerer {
    /// Always ready.
    public mutating func ready(for task: CalibrationTask) -> TrialAnswer? { .yes }

    /// The person's answer to what the board output, felt through this rig's motor.
    public mutating func answer(_ task: CalibrationTask, stimulus: Stimulus, output: [(seconds: Double, drive: Double)]?) -> TrialAnswer? {
        let felt = stimulus.judgedAmplitude(of: Stimulus.drive(following: output ?? []), on: .erm(motor))
        return person.answer(amplitude: felt, touch: task.touch, comfort: task == .comfortMax) ? .yes : .no
    }
}
