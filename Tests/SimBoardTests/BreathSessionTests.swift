// BreathSession as an app uses it: a few lines play a breath on a board (here the simulated one in its
// own thread), a change from another thread reaches the motor, and the session ends with the motor off.

import Breath
import Foundation
import MotorSession
import SimBoard
import Testing

@Suite(.timeLimit(.minutes(10))) struct BreathSessionTests {
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
        let phases = events.compactMap { e -> BreathPhase? in if case .phase(let k, _, _, _, _) = e { return k } else { return nil } }
        #expect(phases == [.inhale, .hold, .exhale])
    }
}
