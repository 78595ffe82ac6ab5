// A layout of a port and a simulated board in real time: both on one time base, both play every frame
// (a real-time world once counted from its own start while the port read the system clock, and the
// simulated board waited hours for the common start, playing nothing). The port's board is a simulated
// board on its own thread behind a real pty, as `motorbreath sim-board` runs it.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorSession
import Playback
import SerialLink
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(2))) struct MixedLayoutTests {
    @Test func aPortAndASimulatedBoardBothPlayEveryFrame() throws {
        let pty = try PseudoTerminal()
        let board = SimulatedBoard(spec: SimBoardSpec(), link: pty)
        board.persistent = true
        board.start()
        defer { board.stop() }
        let stage = try Stage.open([NamedPlace("port", .port(pty.slavePath)), NamedPlace("sim", .simulated())])
        defer { stage.close() }
        var o = BreathOptions()
        o.length = .cycles(1)
        let result = Playback(stage).play(.breath(BreathPlan(pattern: try BreathPattern.parse("1-0-1"), options: o)))
        #expect(result.exitCode == 0, "\(result.failure ?? "")")
        for b in result.boards {
            #expect(b.report.framesPlayed == b.report.framesTotal && b.report.framesTotal > 0, "\(b.name): \(b.report.framesPlayed)/\(b.report.framesTotal)")
        }
        // The port's board: its own record of drive changes shows the breath (not only the warm-up floor).
        #expect(board.driveChanges.contains { $0.level > 16_000 })
    }
}
