// BreathSession as an app uses it: a few lines play a breath on a board (here the simulated one in its
// own thread), a change from another thread reaches the motor, and the session ends with the motor off.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorSession
import MotorWire
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct BreathSessionTests {
    @Test func anAppPlaysAndSteersABreathInAFewLines() throws {
        let (link, board) = SimulatedBoard.inProcess()
        defer { board.stop() }
        let session = BreathSession(link: link)
        var events: [SessionEvent] = []
        session.onEvent = { events.append($0) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { session.change(.strength(0.3)) }
        let report = try session.play(try BreathPattern.parse("2-1-2"), loop: false)
        #expect(report.motorOffAtExit)
        #expect(report.framesPlayed == report.framesTotal && report.underruns == 0)
        #expect(report.dutyMismatches == 0)  // every frame the board played is one the host meant
        let applied = events.compactMap { e -> BreathChange? in if case .applied(let c, _, _, _, _) = e { return c } else { return nil } }
        #expect(applied == [.strength(0.3)])
        let phases = events.compactMap { e -> BreathPhase? in if case .phase(let k, _, _, _, _, _) = e { return k } else { return nil } }
        #expect(phases == [.inhale, .hold, .exhale])
    }

    /// Every duty format an app may configure plays at the drive it means: the board's own output at the
    /// breath's peak is the same fraction of full drive for u8, u16 and i16 (u16 frames were rendered as
    /// 0...255 and played at about 0.4 %).
    @Test(arguments: [DutyFormat.u8, .u16, .i16])
    func everyDutyFormatPlaysAtItsDrive(_ format: DutyFormat) throws {
        let world = SimWorld(pacing: .virtual, seed: 3)
        var options = SessionOptions()
        options.dutyFormat = format
        let session = BreathSession(link: world.hostLink, clock: world.hostClock, options: options)
        let report = try session.play(try BreathPattern.parse("1-0-1"), compensate: false)
        #expect(report.framesPlayed == report.framesTotal && report.motorOffAtExit)
        let peak = world.board.port.drive.changes.map { abs(Int($0.level)) }.max() ?? 0
        // The breath peaks at 0.8 of full drive (BreathOptions.peak): 26214 of 32767 on the board's scale.
        #expect(abs(peak - 26214) < 400, "\(format): peak output \(peak) of 32767")
    }
}

