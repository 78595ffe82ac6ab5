// The simulated board in-process over an in-memory link: a breath played, felt through the ERM model.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorSession
import MotorWire
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct InProcessBoardTests {
    @Test func breathIsFeltThroughTheMotorModel() throws {
        var spec = SimBoardSpec()
        spec.driftPPM = 300
        // The board thread hands each level to its (simulated) PWM this far ahead, as a DMA-fed timer would.
        // At the default 20 ms, one stall of the thread on a cold CI machine played a frame late (a clean-clone
        // run, once); 100 ms keeps this test about the board's logic, not about the host's scheduler.
        spec.outputLeadMs = 100
        let (link, board) = SimulatedBoard.inProcess(spec: spec)
        defer { board.stop() }
        var options = SessionOptions()
        options.startLeadMs = 100
        var o = BreathOptions()
        o.peak = 1
        let plan = BreathPlan(pattern: BreathPattern(name: "t", inhale: 1, hold: 0.5, exhale: 1), options: o)
        let renderer = FrameWindow(FrameRenderer(plan: plan, frameRate: 250, compensate: false))
        let channel = BoardChannel(link: link)
        let prepared = try channel.prepare(options: options)
        #expect(prepared.info.name == BoardName("motorbreath-sim-erm"))
        let player = Player(channel: channel, prepared: prepared, options: options)
        let report = try player.play(renderer)
        #expect(report.framesPlayed == 625)
        #expect(report.dutyMismatches == 0 && report.underruns == 0 && report.playedLate == 0)
        #expect(report.motorOffAtExit)

        // Felt amplitude, sampled every 10 ms of board time from frame 0's tick.
        let t0 = try #require(player.starts.first).start.timebase.due(0)
        let ms10 = UInt64(spec.clockHz / 100)
        let felt = board.felt(from: t0, to: t0 + 300 * ms10, stepTicks: ms10, model: ERMModel())
        #expect(felt[5] < 0.01)          // 50 ms in: intended ~0.007, below the stall threshold
        #expect(felt[99] > 0.75)         // end of inhale: close to the peak, lagging a little
        #expect(felt[99] < 1.0)
        #expect(felt[140] < 0.01)        // hold: still
        #expect(felt[299] < 0.02)        // after the exhale and the stop
        #expect(board.inspect { $0.state } == .configured)
        #expect(board.inspect { $0.output } == 0)
    }
}
