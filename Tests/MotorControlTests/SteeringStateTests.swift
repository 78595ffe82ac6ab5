// SteeringState's rules, table-driven: what each command sets and what it asks of the session (one board,
// several, the palette), a refused pattern taken back, the keys, the live line.
// SPDX-License-Identifier: Apache-2.0

import Breath
@testable import MotorControl
import MotorSession
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SteeringStateTests {
    /// 4-7-8 (3.16 breaths a minute), strength 0.8, sharpness 0.3.
    static let start = SteeringState(pattern: BreathPattern.presets[0], strength: 0.8, sharpness: 0.3)
    static let box = BreathPattern.presets[1]

    /// One command on a state: the outcome, and the values after it.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var before: @Sendable (inout SteeringState) -> Void = { _ in }
        var boards: [String] = []
        var routed = false
        var command: ControlCommand
        var outcome: SteeringState.Outcome
        var after: @Sendable (inout SteeringState) -> Void = { _ in }
        var testDescription: String { name }
    }

    static let steady: @Sendable (inout SteeringState) -> Void = { $0.steady = true }
    static let both = ["left", "right"]

    static let rows: [Row] = [
        Row(name: "intensity", command: .intensity(0.5), outcome: .change(.strength(0.4)), after: {
            $0.intensity = 0.5  // and waits for its answer: a refused one is taken back (HubAnswerTests)
            $0.unanswered = [.init(change: .strength(0.4), pattern: BreathPattern.presets[0], bpm: 60 / 19)]
        }),
        Row(name: "intensity, several boards", boards: both, routed: true, command: .intensity(0.5),
            outcome: .everyBoard([.init(board: "left", change: .strength(0.4)), .init(board: "right", change: .strength(0.4))]),
            after: { $0.intensity = 0.5 }),
        Row(name: "intensity, boards without a route", boards: both, command: .intensity(0.5), outcome: .change(.strength(0.4)),
            after: { $0.intensity = 0.5; $0.unanswered = [.init(change: .strength(0.4), pattern: BreathPattern.presets[0], bpm: 60 / 19)] }),
        Row(name: "one board's intensity", before: { $0.intensity = 0.5 }, boards: both, routed: true,
            command: .boardIntensity(board: "left", value: 0.5), outcome: .oneBoard(.init(board: "left", change: .strength(0.2))),
            after: { $0.boardIntensity["left"] = 0.5 }),
        Row(name: "a board not playing", boards: both, routed: true, command: .boardIntensity(board: "middle", value: 0.5),
            outcome: .error(#"intensity: "board" must be one of the boards: left, right"#)),
        Row(name: "a board with one board", command: .boardIntensity(board: "left", value: 0.5),
            outcome: .error(#"intensity: "board" names one of several boards playing in step; this session plays one"#)),
        Row(name: "sharpness", command: .sharpness(0.5), outcome: .change(.sharpness(0.8)), after: {
            $0.sharpnessOffset = 0.5; $0.unanswered = [.init(change: .sharpness(0.8), pattern: BreathPattern.presets[0], bpm: 60 / 19)]
        }),
        Row(name: "sharpness clamped", command: .sharpness(-1), outcome: .change(.sharpness(0)), after: {
            $0.sharpnessOffset = -1; $0.unanswered = [.init(change: .sharpness(0), pattern: BreathPattern.presets[0], bpm: 60 / 19)]
        }),
        Row(name: "pace", command: .change(.pace(breathsPerMinute: 6)), outcome: .change(.pace(breathsPerMinute: 6)), after: {
            $0.bpm = 6  // and waits for its answer: a refused pace is taken back (HubAnswerTests)
            $0.unanswered = [.init(change: .pace(breathsPerMinute: 6), pattern: BreathPattern.presets[0], bpm: 60 / 19)]
        }),
        Row(name: "pause", command: .change(.pause), outcome: .change(.pause), after: { $0.paused = true }),
        Row(name: "resume", before: { $0.paused = true }, command: .change(.resume), outcome: .change(.resume), after: { $0.paused = false }),
        Row(name: "a seek resumes", before: { $0.paused = true }, command: .change(.seek(cycle: 2, phase: 0)),
            outcome: .change(.seek(cycle: 2, phase: 0)), after: { $0.paused = false }),
        Row(name: "finish", command: .change(.finishAfterThisBreath), outcome: .change(.finishAfterThisBreath)),
        Row(name: "pattern", command: .change(.pattern(box, now: false)), outcome: .change(.pattern(box, now: false)), after: {
            $0.unanswered = [.init(change: .pattern(box, now: false), pattern: BreathPattern.presets[0], bpm: 60 / 19)]
            $0.pattern = box
            $0.bpm = 60 / 16
        }),
        Row(name: "stop", command: .stop, outcome: .stop),
        Row(name: "state", command: .state, outcome: .answer(.state)),
        Row(name: "patterns", command: .patterns, outcome: .answer(.patterns)),
        Row(name: "clock", command: .clock, outcome: .answer(.clock)),
        Row(name: "the palette's pace", before: steady, command: .change(.pace(breathsPerMinute: 6)),
            outcome: .refused(command: "pace", reason: "the palette plays a steady vibration: it has no pace")),
        Row(name: "the palette's pattern", before: steady, command: .change(.pattern(box, now: true)),
            outcome: .refused(command: "pattern", reason: "the palette plays a steady vibration: it has no pattern")),
        Row(name: "the palette's finish", before: steady, command: .change(.finishAfterThisBreath), outcome: .stop),
        Row(name: "an app's NaN intensity", command: .intensity(.nan), outcome: .error(#"intensity: "value" must be a finite number in 0...1"#)),
        Row(name: "an app's infinite strength", command: .change(.strength(.infinity)),
            outcome: .error(#"intensity: "value" must be a finite number in 0...1"#)),
        Row(name: "an app's NaN pace", command: .change(.pace(breathsPerMinute: .nan)), outcome: .error(#"pace: "bpm" must be a finite number in 1...30"#)),
        Row(name: "an app's NaN board intensity", boards: both, routed: true, command: .boardIntensity(board: "left", value: .nan),
            outcome: .error(#"intensity: "value" must be a finite number in 0...1"#)),
    ]

    @Test(arguments: rows)
    func aCommandSetsItsValuesAndAsksItsChange(row: Row) {
        var state = Self.start
        row.before(&state)
        var expected = state
        row.after(&expected)
        #expect(state.take(row.command, boards: row.boards, routed: row.routed) == row.outcome)
        #expect(state == expected)
    }

    /// (the patterns asked for, the one refused; the pattern after, and whether it was taken back).
    static let answers: [(asked: [Int], refused: Int?, applied: Int?, after: Int, takenBack: Bool)] = [
        ([1], 1, nil, 0, true),          // refused, nothing asked since: the one before plays
        ([1], nil, 1, 1, false),         // applied: stays
        ([1, 2], 1, nil, 2, false),      // refused, but another was asked since: the later stands
        ([1, 2], 2, nil, 2, false),      // the later refused while the first is unanswered: not taken back
    ]

    @Test(arguments: 0..<answers.count)
    func aRefusedPatternIsTakenBackOnlyWhenNothingFollowed(index: Int) {
        let row = Self.answers[index]
        let presets = BreathPattern.presets
        var state = Self.start
        for k in row.asked { _ = state.take(.change(.pattern(presets[k], now: false))) }
        var taken = false
        if let k = row.refused { taken = state.answered(.pattern(presets[k], now: false), refused: true) }
        if let k = row.applied { taken = state.answered(.pattern(presets[k], now: false), refused: false) }
        #expect(taken == row.takenBack)
        #expect(state.pattern == presets[row.after] && state.bpm == 60 / presets[row.after].cycleSeconds)
    }

    /// (key, steady, the command it asks for) from intensity 0.5, sharpness offset 0, pace 6, paused.
    static let keys: [(ControlHub.Key, Bool, ControlCommand)] = [
        (.up, false, .intensity(0.6)), (.down, false, .intensity(0.4)),
        (.right, false, .change(.pace(breathsPerMinute: 6.5))), (.left, false, .change(.pace(breathsPerMinute: 5.5))),
        (.right, true, .sharpness(0.1)), (.left, true, .sharpness(-0.1)),
        (.space, false, .change(.resume)), (.finish, false, .change(.finishAfterThisBreath)), (.quit, false, .stop),
    ]

    @Test(arguments: 0..<keys.count)
    func aKeyAsksForItsCommand(index: Int) {
        let (key, steady, command) = Self.keys[index]
        var state = Self.start
        (state.intensity, state.bpm, state.paused, state.steady) = (0.5, 6, true, steady)
        #expect(state.command(for: key) == command)
    }

    @Test func theLiveLineAndTheEdgesOfTheKeys() {
        var state = Self.start
        (state.intensity, state.bpm, state.paused) = (0.5, 5.5, true)
        #expect(state.summary == "intensity 50%  pace 5.5/min  paused")
        state.steady = true
        #expect(state.summary == "intensity 50%  sharpness 0.3  paused")
        (state.intensity, state.bpm) = (1, 30)
        #expect(state.command(for: .up) == .intensity(1))
        state.steady = false
        #expect(state.command(for: .right) == .change(.pace(breathsPerMinute: 30)))
    }
}
