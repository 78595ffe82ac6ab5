// Virtual-time sessions: drift tracking, reconnect-and-resume at the right phase, failsafe, stalled board.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorSession
import MotorWire
import SerialLink
import SimBoard
import Testing
import TimingBench
import TestSupport

func ftdiLike(drift: Double) -> LinkImpairments {
    var l = LinkImpairments()
    l.latencyNs = 16_000_000
    l.jitterNs = 8_000_000
    l.driftPPM = drift
    return l
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct DriftAndRecoveryTests {
    @Test(arguments: [500.0, -500.0])
    func boardClockDriftDoesNotMoveTheBreath(drift: Double) throws {
        var s = TimingScenario(impairments: ftdiLike(drift: drift))
        s.minutes = 2
        let (r, _, _) = try SimulatedSession.run(s)
        #expect(r.framesPlayed == r.frames)
        #expect(r.underruns == 0 && r.wrongDuties == 0)
        #expect(abs(r.clockDriftPPM - drift) < 10, "estimated \(r.clockDriftPPM) ppm")
        #expect(r.scheduleErrorUs.p99 < 1000, "p99 \(r.scheduleErrorUs.p99) µs")
        #expect(r.driftAtEndUs < 1000)
        #expect(r.startErrorUs < 1000)
    }

    /// Without re-timing the same session would drift by 500 ppm x 120 s = 60 ms: the test can fail.
    @Test func withoutRetimingTheScheduleDrifts() throws {
        var s = TimingScenario(impairments: ftdiLike(drift: 500))
        s.minutes = 2
        var o = SessionOptions()
        o.retimeThresholdUs = 1e9
        let (r, _, _) = try SimulatedSession.run(s, options: o)
        #expect(r.driftAtEndUs > 20_000)
    }

    @Test func unplugAndReplugResumesAtTheCurrentPhase() throws {
        var s = TimingScenario(impairments: ftdiLike(drift: 200))
        s.minutes = 1
        let (r, player, world) = try SimulatedSession.run(s, during: [(atS: 20, action: { $0.unplug(forNs: 1_000_000_000) })])
        #expect(r.reconnects == 1)
        #expect(world.boots == 1)  // it came back as a fresh board
        #expect(player.wireBases.count == 2)
        // It resumed where the breath is by then, not from the start: about 20 s + the outage + prepare in.
        let resumedAt = Double(player.wireBases[1]) / 250
        #expect(resumedAt > 21 && resumedAt < 23, "resumed at \(resumedAt) s")
        // Frames after the resume play on time against the new board's true clock.
        let after = world.plays.filter { $0.boot == 1 }
        #expect(!after.isEmpty)
        let late = after.map { p -> Double in
            let truth = world.clockHistory[1].ticks(atHostNs: player.intendedNs(player.wireBases[1] + Int(p.index)))
            return abs(Double(p.tick) - Double(truth))
        }
        #expect(Percentiles(late).p99 < 1000)
        #expect(player.report.reconnectGapMs > 1000 && player.report.reconnectGapMs < 2500)
    }

    @Test func boardResetIsDetectedAndPlaybackResumes() throws {
        var s = TimingScenario(impairments: ftdiLike(drift: 0))
        s.minutes = 1
        let (r, player, world) = try SimulatedSession.run(s, during: [(atS: 30, action: { $0.reboot() })])
        #expect(r.reconnects == 1)
        #expect(world.boots == 1)
        #expect(player.report.framesSkipped < 500)  // under 2 s of breath lost (measured: ~1.2 s)
        #expect(player.report.motorOffAtExit)
    }

    @Test func failsafeStopsTheMotorWhenTheHostGoesSilent() throws {
        let world = SimWorld(impairments: ftdiLike(drift: 0), pacing: .virtual)
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        let prepared = try channel.prepare(options: SessionOptions())
        var values = DutyValues()
        for _ in 0..<200 { values.append(200) }
        try channel.send(.frames(FramesBlock(firstIndex: 0, format: prepared.config.dutyFormat, values: values)))
        let now = prepared.clock.estimate()!.tick(atHostNs: world.nowNs)
        try channel.send(.start(Start(anchorIndex: 0, anchorTick: now + 100_000, periodQ32: 4000 << 32)))
        // The host dies here: nothing more is sent. 200 frames would last 800 ms.
        let lastSend = world.nowNs
        world.run(until: lastSend + 2_000_000_000)
        #expect(world.board.state == .failsafe)
        #expect(world.board.output == 0)
        let off = try #require(world.driveChanges.last)
        #expect(off.level == 0)
        // Off within failsafe_ms (200) of the last valid traffic (which reached the board <= 24 ms after sending).
        let lastArrival = world.clock.ticks(atHostNs: lastSend + 24_000_000)
        #expect(off.tick <= lastArrival + 200_000 + 1, "off \(Double(off.tick - lastArrival) / 1000) ms after the last traffic")
        #expect(world.plays.count < 200)  // it did not play the buffer out
    }

    @Test func aStalledBoardDoesNotMakeTheHostPileUpFrames() throws {
        let world = SimWorld(impairments: ftdiLike(drift: 0), pacing: .virtual)
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        var o = SessionOptions()
        o.reconnectAttempts = 2
        let prepared = try channel.prepare(options: o)
        var opts = BreathOptions()
        opts.length = .minutes(1)
        let plan = BreathPlan(pattern: try BreathPattern.parse("4-7-8"), options: opts)
        let player = Player(channel: channel, prepared: prepared, options: o)
        let start = world.nowNs
        var sentAtStall: Int?
        #expect(throws: SessionError.self) {
            _ = try player.play(FrameWindow(FrameRenderer(plan: plan, frameRate: 250)), shouldStop: {
                if sentAtStall == nil && world.nowNs > start + 5_000_000_000 {
                    world.stalled = true
                    sentAtStall = player.report.framesSent
                }
                return false
            })
        }
        let extra = player.report.framesSent - (sentAtStall ?? 0)
        #expect(extra <= Int(prepared.info.bufferCapacity), "\(extra) frames sent to a stalled board")
    }
}
