// The calibration's trial loop on the simulated board in virtual time: a simulated person judging the
// board's real output finds the rig's truth; q, the end of the answers and a stop each end the run there.
// SPDX-License-Identifier: Apache-2.0

import BoardAccess
import Breath
import Calibration
import MotorSession
import SimBoard
import Testing
import TestSupport

/// Answers from a script: the ready answers, then the trial answers, then nil (the answers ran out).
struct ScriptedAnswers: TrialAnswerer {
    var ready: [TrialAnswer?]
    var trials: [TrialAnswer?]
    var events: [String] = []
    mutating func ready(for task: CalibrationTask) -> TrialAnswer? { ready.isEmpty ? nil : ready.removeFirst() }
    mutating func answer(_ task: CalibrationTask, stimulus: Stimulus, output: [(seconds: Double, drive: Double)]?) -> TrialAnswer? {
        trials.isEmpty ? nil : trials.removeFirst()
    }
    mutating func note(_ event: CalibrationRun.Event) { events.append("\(event)".prefix(while: { $0 != "(" }).description) }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10)))
struct CalibrationRunTests {
    func player(seed: UInt64) throws -> (TrialPlayer, BoardConnection) {
        let board = BoardConnection.simulated(SimWorld(pacing: .virtual, seed: seed))
        var options = SessionOptions()
        options.allowReverse = false
        let player = TrialPlayer(session: board.session(options: options), world: board.world)
        let prepared = try player.prepare()
        #expect(player.session.options.frameRate == min(1000, Int(prepared.info.maxFrameRateHz)), "prepared at the finest frames")
        return (player, board)
    }

    @Test func aSimulatedPersonOnTheBoardFindsTheRigsTruth() throws {
        let seed: UInt64 = 5
        let (player, board) = try player(seed: seed)
        defer { board.close() }
        var rig = SimulatedRig(motor: ERMModel(riseTau: 0.080, fallTau: 0.080, startThreshold: 0.15), person: .random(seed: seed))
        var run = CalibrationRun(lra: false)
        let end = try run.run(on: player, answerer: &rig, shouldStop: { false })
        #expect(end == .done)
        #expect(run.procedure.done)
        for task in [CalibrationTask.motorStart, .feltThreshold, .comfortMax] {
            let estimate = try #require(run.procedure.results[task]).estimate
            // The staircase's step is a few % of full scale: within 0.06 of the truth, for this seed.
            #expect(abs(estimate - rig.truth(task)) < 0.06, "seed \(seed): \(task) \(estimate) vs truth \(rig.truth(task))")
        }
    }

    @Test func qAtReadyEndsTheRunBeforeAnyTrial() throws {
        let (player, board) = try player(seed: 1)
        defer { board.close() }
        var answers = ScriptedAnswers(ready: [.quit], trials: [])
        var run = CalibrationRun(lra: false)
        #expect(try run.run(on: player, answerer: &answers, shouldStop: { false }) == .quit)
        #expect(run.procedure.trials == 0)
        #expect(answers.events == ["task"])
    }

    @Test func answersRunningOutOrQMidTaskEndTheRunThere() throws {
        let (player, board) = try player(seed: 2)
        defer { board.close() }
        var answers = ScriptedAnswers(ready: [.yes], trials: [.yes, .no])
        var run = CalibrationRun(lra: false)
        #expect(try run.run(on: player, answerer: &answers, shouldStop: { false }) == .noMoreAnswers)
        #expect(run.procedure.trials == 2)
        #expect(answers.events == ["task", "trial", "answered", "trial", "answered", "trial"])
        var quitting = ScriptedAnswers(ready: [.yes], trials: [.quit])
        var again = CalibrationRun(lra: false)
        #expect(try again.run(on: player, answerer: &quitting, shouldStop: { false }) == .quit)
        #expect(again.procedure.trials == 0)
    }

    @Test func aStopAfterATrialEndsTheRunUnanswered() throws {
        let (player, board) = try player(seed: 3)
        defer { board.close() }
        var answers = ScriptedAnswers(ready: [.yes], trials: [.yes])
        var run = CalibrationRun(lra: true)
        #expect(try run.run(on: player, answerer: &answers, shouldStop: { true }) == .stopped)
        #expect(run.procedure.trials == 0)
        #expect(answers.trials == [.yes], "not asked after the stop")
    }
}
