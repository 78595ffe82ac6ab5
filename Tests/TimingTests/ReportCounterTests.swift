// Each of the report's event counters is made to count something, then compared with what happened, read
// from the simulated board itself or from the bytes on the line (not from the host's own tallies): an
// upper bound such as `underruns == 0` on a clean run cannot see a counter that always says 0.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorSession
import MotorWire
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ReportCounterTests {
    /// The board's own counters, read from the simulated board (not through STATUS).
    func boardCounters(_ world: SimWorld) -> Status { world.board.status(ackSeq: 0, now: 0) }

    /// 1.5 s of FRAMES messages lost on the line (heartbeats and clock exchanges pass, so the failsafe
    /// holds): the board plays out its buffer, then plays frames it does not have.
    @Test func underrunsAreTheBoardsOwnCount() throws {
        var s = TimingScenario(impairments: try LinkImpairments.parse("latency=4ms,jitter=2ms"))
        s.pattern = "2-1-2"
        s.minutes = 0.2
        s.seed = 3
        let (_, player, world) = try SimulatedSession.run(s, during: [
            (atS: 5, action: { $0.hostWriteFilter = { _, bytes in bytes.count <= 40 } }),
            (atS: 6.5, action: { $0.hostWriteFilter = nil }),
        ])
        let r = player.report, board = boardCounters(world)
        print("seed \(s.seed): underruns reported \(r.underruns), the board's \(board.underruns); late arrivals \(r.lateArrivals), the board's late frames \(board.lateFrames)")
        #expect(r.reconnects == 0, "seed \(s.seed)")  // one stream: the board's counters cover the session
        #expect(board.underruns > 50, "the scenario made no underruns (seed \(s.seed))")
        #expect(r.underruns == Int(board.underruns), "seed \(s.seed)")
        // Frames resent after the gap, past their tick, are late arrivals; no REPLACE here to tell apart.
        #expect(r.replacedTooLate == 0)
        #expect(r.lateArrivals == Int(board.lateFrames), "seed \(s.seed)")
    }

    /// Corruption on both directions of the line from 4 s to 9 s. The board's CRC failures are read from the
    /// board; the host's from a decoder of this test's own fed with every byte the host read.
    @Test func crcErrorsAreTheBoardsAndTheHostsBadFrames() throws {
        var s = TimingScenario(impairments: try LinkImpairments.parse("latency=2ms,jitter=1ms"))
        s.pattern = "2-1-2"
        s.minutes = 0.2
        s.seed = 11
        let corrupt = try LinkImpairments.parse("latency=2ms,jitter=1ms,corrupt=0.002")
        var hostSide = FrameDecoder()
        var boardAtOn: UInt16 = 0
        let (_, player, world) = try SimulatedSession.run(s, during: [
            (atS: 4, action: { world in
                boardAtOn = world.board.status(ackSeq: 0, now: 0).rxCRCErrors
                world.hostReadObserver = { _, bytes in for b in bytes { _ = hostSide.push(b) } }
                world.impairments = corrupt
            }),
            (atS: 9, action: { $0.impairments = s.impairments }),
        ])
        let r = player.report
        let board = Int(boardCounters(world).rxCRCErrors &- boardAtOn), host = Int(hostSide.errors.badCRC)
        print("seed \(s.seed): crc_errors \(r.crcErrors); the board's \(board), the host's (own decoder) \(host); reconnects \(r.reconnects)")
        #expect(board > 0 && host > 0, "the corruption made no bad frame on one side (seed \(s.seed))")
        #expect(r.reconnects == 0, "seed \(s.seed)")
        #expect(r.crcErrors == board + host, "seed \(s.seed)")
    }

    /// A steered breath over a jittery link: some REPLACE values reach the board after their frame was output
    /// (by design: the host replaces from its guess of the board's next frame). The board counts those as
    /// late frames; the report tells them apart (`replaced_too_late`) from late data (`late_arrivals`). The
    /// count comes from the board's own view of each REPLACE when it arrived.
    @Test func lateReplacementsAreNotLateArrivals() throws {
        let seed: UInt64 = 7
        let world = SimWorld(impairments: try LinkImpairments.parse("latency=16ms,jitter=8ms"), pacing: .virtual, seed: seed)
        let seen = ReplaceWatch()
        world.recordPlays = true
        world.observePlays(seen)
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        var options = SessionOptions()
        options.allowReverse = true
        let prepared = try channel.prepare(options: options)
        let live = LiveFrames(plan: LivePlan(pattern: try BreathPattern.parse("2-1-2"), options: BreathOptions(), loop: true),
                              frameRate: options.frameRate, resolution: DutyResolution(prepared.config.dutyFormat), warmup: 0.3)
        let player = Player(channel: channel, prepared: prepared, options: options)
        var rng = SplitMix64(seed: seed)
        var next = channel.clock.nowNs() + 2_000_000_000, made = 0
        let r = try player.play(live, shouldStop: {
            let t = channel.clock.nowNs()
            guard t >= next else { return false }
            made += 1
            player.controls.send(made < 12 ? .strength(0.3 + 0.7 * rng.unit()) : .finishAfterThisBreath)
            next = made < 12 ? t + 600_000_000 : UInt64.max
            return false
        })
        let board = boardCounters(world)
        print("seed \(seed): replaced_too_late \(r.replacedTooLate) (the board saw \(seen.tooLate)), late_arrivals \(r.lateArrivals), the board's late frames \(board.lateFrames)")
        #expect(r.reconnects == 0, "seed \(seed)")
        #expect(seen.tooLate > 0, "no REPLACE came too late (seed \(seed))")
        #expect(r.replacedTooLate == seen.tooLate, "seed \(seed)")
        #expect(r.lateArrivals == Int(board.lateFrames) - seen.tooLate, "seed \(seed)")
    }
}

/// Counts, as each REPLACE reaches the simulated board, its values for frames the board had already output.
final class ReplaceWatch: PlayObserver, @unchecked Sendable {
    private(set) var tooLate = 0
    func played(_ record: PlayRecord) {}
    func replaceArrived(boot: Int, block: FramesBlock, nextPlay: UInt32, tick: UInt64) {
        for k in 0..<block.values.count where indexDistance(block.firstIndex &+ UInt32(k), nextPlay) < 0 { tooLate += 1 }
    }
}
