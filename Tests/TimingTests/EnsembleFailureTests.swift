// One board of an ensemble fails, in virtual time: its cable pulled mid-breath (SimWorld.unplug) for a
// second, it reconnects on its own and rejoins at the breath's phase while the others play on; pulled for
// good, it ends only its part; with all-or-nothing its failure stops every board. Judged on the boards'
// true clocks read back to world time (the simulation's truth), never on the host's estimates.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorSession
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct EnsembleFailureTests {
    /// Three boards (clocks -5 %, 0, +3 %, three links); board `pulled` unplugged at `atS` for `forS`.
    static func boards(seed: UInt64, pulled: Int, atS: Double, forS: Double) throws -> [EnsembleBoard] {
        var boards = [EnsembleBoard(name: "slow", impairments: try LinkImpairments.parse("latency=16ms,jitter=8ms,drift=-50000ppm"), seed: seed),
                      EnsembleBoard(name: "exact", impairments: try LinkImpairments.parse("ftdi"), seed: seed + 100),
                      EnsembleBoard(name: "fast", impairments: try LinkImpairments.parse("cdc,drift=30000ppm"), seed: seed + 200)]
        boards[pulled].unplug = (atS, forS)
        return boards
    }

    @Test(arguments: [0, 1]) func aBoardPulledForASecondRejoinsAtThePhaseWhileTheOthersPlayOn(pulled: Int) throws {
        let seed: UInt64 = 21
        let r = try EnsembleSession.run(try Self.boards(seed: seed, pulled: pulled, atS: 20, forS: 1), minutes: 1)
        let context = "seed \(seed), board \(r.boards[pulled].name) pulled at 20 s for 1 s"
        for b in r.boards {
            print("rejoin (\(context)): \(b.name): \(b.framesPlayed)/\(b.report.framesTotal) frames, reconnects \(b.report.reconnects), longest gap \(b.longestGapMs) ms before frame \(b.frameAfterGap), schedule p99 \(b.scheduleErrorUs.p99) max \(b.scheduleErrorUs.max) µs, error \(b.report.error ?? "none")")
        }
        print("rejoin (\(context)): skew over \(r.framesCompared) frames p99 \(r.skewUs.p99) max \(r.skewUs.max) µs")
        let total = r.boards[0].report.framesTotal
        for (k, b) in r.boards.enumerated() where k != pulled {
            // The others never notice: every frame, no reconnect, no silence beyond a frame's.
            #expect(b.report.error == nil && b.report.reconnects == 0 && b.framesPlayed == total, "\(b.name): \(context)")
            #expect(b.longestGapMs < 5, "\(b.name) fell silent \(b.longestGapMs) ms (\(context))")
        }
        let back = r.boards[pulled]
        #expect(back.report.error == nil && back.report.reconnects == 1, "\(context): \(back.report.reconnectReasons)")
        // It rejoins the breath where it is by then (20 s, a second away, a prepare and the start lead later:
        // frame 5250 at 21 s), never from frame 0, and every frame it plays is on the common time line.
        #expect(back.frameAfterGap > 21 * 250 && back.frameAfterGap < 24 * 250, "rejoined at frame \(back.frameAfterGap) (\(context))")
        #expect(back.longestGapMs > 1000 && back.longestGapMs < 4000, "\(context)")
        #expect(back.framesPlayed + back.report.framesSkipped >= total - 5, "\(context)")
        #expect(r.skewUs.max <= 1000, "max skew \(r.skewUs.max) µs (\(context))")
        #expect(r.boards.allSatisfy { $0.report.motorOffAtExit })
    }

    @Test func aBoardResetMidBreathRejoinsAtThePhase() throws {
        var boards = try Self.boards(seed: 9, pulled: 0, atS: 0, forS: 0)
        boards[0].unplug = nil
        boards[0].resetAtS = 20
        let r = try EnsembleSession.run(boards, minutes: 1)
        let back = r.boards[0]
        print("reset: \(back.name) silent \(back.longestGapMs) ms, rejoined at frame \(back.frameAfterGap), schedule max \(back.scheduleErrorUs.max) µs; skew max \(r.skewUs.max) µs")
        #expect(back.report.error == nil && back.report.reconnects == 1, "\(back.report.reconnectReasons)")
        #expect(back.frameAfterGap > 20 * 250 && back.frameAfterGap < 24 * 250, "rejoined at frame \(back.frameAfterGap)")
        // Within half a frame of the others (2 ms at 250 Hz): on the common time line. (Its estimate is young after
        // the reset, on a 16 ± 8 ms link with a clock 5 % slow: over seeds 1-12 the worst frame's skew was
        // 0.35-1.7 ms, above 1 ms on 1 to 4 of them as the session's timing shifted a round trip either way.)
        #expect(r.skewUs.max <= 2000, "max skew \(r.skewUs.max) µs")
        #expect(r.boards.dropFirst().allSatisfy { $0.report.reconnects == 0 && $0.framesPlayed == $0.report.framesTotal })
    }

    @Test func aBoardThatNeverComesBackEndsOnlyItsPart() throws {
        var options = SessionOptions()
        options.reconnectAttempts = 4
        let r = try EnsembleSession.run(try Self.boards(seed: 4, pulled: 1, atS: 5, forS: 3600), minutes: 0.5, options: options)
        let total = r.boards[0].report.framesTotal
        #expect(r.boards[1].report.error?.contains("come back") == true, "\(r.boards[1].report.error ?? "no error")")
        for k in [0, 2] {
            let b = r.boards[k]
            #expect(b.report.error == nil && b.framesPlayed == total && b.report.reconnects == 0, "\(b.name): \(b.report.error ?? "")")
        }
        #expect(r.boards[1].framesPlayed < 6 * 250)
    }

    @Test func allOrNothingStopsEveryBoardWhenOneFailsForGood() throws {
        var options = SessionOptions()
        options.reconnectAttempts = 4
        let r = try EnsembleSession.run(try Self.boards(seed: 4, pulled: 1, atS: 5, forS: 3600), minutes: 2, options: options,
                                        allOrNothing: true)
        for b in r.boards {
            print("all or nothing: \(b.name): \(b.framesPlayed) frames, motor off \(b.report.motorOffAtExit), \(b.report.error ?? "")")
        }
        #expect(r.boards[1].report.error?.contains("come back") == true)
        for k in [0, 2] {
            let b = r.boards[k]
            #expect(b.report.error == "stopped: board exact failed (all or nothing)", "\(b.name): \(b.report.error ?? "")")
            #expect(b.report.motorOffAtExit)
            // Stopped before the breath's end. (Each virtual world runs at its own pace, so how soon after the
            // failure is judged in real time: the process test's drive logs.)
            #expect(b.framesPlayed < total(r), "\(b.name): \(b.framesPlayed) frames")
        }
    }

    func total(_ r: EnsembleResult) -> Int { r.boards[0].report.framesTotal }

    /// A stop while a board is away (Ctrl-C, or another board's failure with all-or-nothing) ends its
    /// reconnect attempts at once: it does not try its 20 times first. World time is the judge.
    @Test func aStopDuringTheReconnectAttemptsEndsThemAtOnce() throws {
        let world = SimWorld(pacing: .virtual, seed: 3)
        let session = BreathSession(link: world.hostLink, clock: world.hostClock)
        session.reopen = { world.hostLink }
        var pulledAt: UInt64?
        session.shouldStop = {
            let t = world.nowNs
            if pulledAt == nil && t > 5_000_000_000 {
                pulledAt = t
                world.unplug(forNs: 3_600_000_000_000)
            }
            return pulledAt.map { t > $0 + 500_000_000 } ?? false
        }
        var breath = BreathOptions()
        breath.length = .minutes(1)
        let report = try session.play(try BreathPattern.parse("4-7-8"), breath: breath)
        let pulled = try #require(pulledAt)
        let took = Double(world.nowNs - pulled) / 1e6
        print("a stop 0.5 s into the reconnect attempts: the session ended \(took) ms after the unplug")
        #expect(report.interrupted && report.error == nil)
        #expect(took < 5000, "ended \(took) ms after the unplug")
    }
}
