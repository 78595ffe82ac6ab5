// A Swift client's commands: each type's line, with an id, is read back by the parser as the command it
// names, and its id is the one echoed; the line is what docs/control.md shows.
// SPDX-License-Identifier: Apache-2.0

import Breath
@testable import MotorControl
import MotorSession
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct TypedCommandTests {
    /// (the typed command's line, the line as docs/control.md writes it, the command the parser makes).
    static let rows: [(line: String, wire: String, command: ControlCommand)] = [
        (IntensityCommand(value: 0.5).line(id: "soft"), #"{"command":"intensity","id":"soft","value":0.5}"#, .intensity(0.5)),
        (IntensityCommand(value: 0.5, board: "left").line(id: 3), #"{"board":"left","command":"intensity","id":3,"value":0.5}"#,
         .boardIntensity(board: "left", value: 0.5)),
        (SharpnessCommand(value: -0.25).line(), #"{"command":"sharpness","value":-0.25}"#, .sharpness(-0.25)),
        (PaceCommand(bpm: 6).line(), #"{"bpm":6,"command":"pace"}"#, .change(.pace(breathsPerMinute: 6))),
        (SeekCommand(cycle: 2, phase: .exhale).line(), #"{"command":"seek","cycle":2,"phase":"exhale"}"#, .change(.seek(cycle: 2, phase: 2))),
        (PatternCommand(pattern: "box", at: .now).line(), #"{"at":"now","command":"pattern","pattern":"box"}"#,
         .change(.pattern(BreathPattern.presets[1], now: true))),
        (PauseCommand().line(), #"{"command":"pause"}"#, .change(.pause)),
        (ResumeCommand().line(), #"{"command":"resume"}"#, .change(.resume)),
        (FinishCommand().line(), #"{"command":"finish"}"#, .change(.finishAfterThisBreath)),
        (StopCommand().line(), #"{"command":"stop"}"#, .stop),
        (StateCommand().line(id: 1), #"{"command":"state","id":1}"#, .state),
        (PatternsCommand().line(), #"{"command":"patterns"}"#, .patterns),
        (ClockCommand().line(), #"{"command":"clock"}"#, .clock),
    ]

    @Test(arguments: 0..<rows.count)
    func aTypedCommandIsTheLineTheParserReads(index: Int) throws {
        let row = Self.rows[index]
        #expect(row.line == row.wire + "\n")
        #expect(try ControlCommand.parse(row.line, pattern: BreathPattern.presets[0]) == row.command)
        if row.wire.contains(#""id""#) { #expect(ControlCommand.id(in: row.line) != nil) }
    }

    /// Every command type has its row.
    @Test func everyCommandHasARow() {
        let named = Set(Self.rows.compactMap { ControlWire.envelope($0.line, key: "command")?.name })
        #expect(named == Set(ControlCommand.names))
    }
}
