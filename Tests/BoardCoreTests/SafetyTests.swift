// BoardCore safety: failsafe, STOP now and at an index, reverse drive gating, LRA carrier.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import MotorWire
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SafetyTests {
    @Test func failsafeTurnsTheMotorOffAfterSilence() throws {
        var b = Bench()
        b.configure(failsafeMs: 200)
        b.send(Bench.frames(0, [UInt16](repeating: 255, count: 60)), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 150_000, by: 500))
        // It played (frame 0 at 1000) and ran out of frames at 61 000 (an underrun plays 0).
        #expect(Array(b.core.port.log.dropFirst().prefix(2)).map { [Int($0.tick), Int($0.level)] } == [[1000, 32767], [61_000, 0]],
                "\(b.core.port.log)")
        b.send(.heartbeat, at: 150_000)
        b.run(stride(from: 150_000, to: 350_001, by: 500))
        #expect(b.core.state == .playing)  // exactly 200 ms after the heartbeat: still alive
        #expect(b.core.failsafeTrips == 0)
        b.run(stride(from: 350_500, to: 352_000, by: 500))
        #expect(b.core.state == .failsafe)
        #expect(b.core.output == 0)
        #expect(b.core.failsafeTrips == 1)
        // The board says so by itself: an unsolicited STATUS in state failsafe whose tick is when it fired.
        let report = try #require(b.lastStatus)
        #expect(report.state == .failsafe && report.ackSeq == 0 && report.tick == 350_500 && report.output == 0)
        // Frames are refused until CONFIGURE.
        b.send(Bench.frames(0, [1]), at: 202_000)
        #expect(b.naks.last?.code == .notConfigured)
        b.configure(at: 203_000)
        #expect(b.core.state == .configured)
    }

    @Test func heartbeatsKeepTheBoardAlive() {
        var b = Bench()
        b.configure(failsafeMs: 200)
        b.start(anchorTick: 1000, at: 0)
        for t in stride(from: UInt64(0), to: 1_000_000, by: 50_000) {
            b.send(.heartbeat, at: t)
            b.run(stride(from: t, to: t + 50_000, by: 1000))
        }
        #expect(b.core.failsafeTrips == 0)
        #expect(b.core.state == .playing)  // playing silence (underruns), but alive
    }

    @Test func stopNowSilencesAtOnce() {
        var b = Bench(lead: 5000)
        b.configure()
        b.send(Bench.frames(0, [255, 255, 255, 255, 255, 255, 255, 255]), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 3000, by: 100))  // levels handed out up to 8000 by the lead
        b.send(.stop(atIndex: HostMessage.stopNow), at: 3000)
        #expect(b.core.output == 0)
        #expect(b.core.port.log.last! == (3000, 0))
        #expect(b.core.port.log.allSatisfy { $0.tick <= 3000 })  // scheduled levels after the stop were cancelled
        #expect(b.core.state == .configured)
        #expect(b.lastStatus?.output == 0)
    }

    @Test func stopAtIndexPlaysUpToItAndReportsTheRest() {
        var b = Bench()
        b.configure(reportEvery: 100)
        b.send(Bench.frames(0, [10, 20, 30, 40, 50]), at: 0)
        b.send(.stop(atIndex: 3), at: 0)  // not armed yet: immediate
        #expect(b.core.state == .configured)
        b.send(Bench.frames(0, [10, 20, 30, 40, 50]), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.send(.stop(atIndex: 3), at: 0)
        b.run(stride(from: 0, to: 10_000, by: 100))
        #expect(b.played.last?.count == 3)
        #expect(b.played.last?.dutyCRC == crc([10, 20, 30]))
        #expect(b.core.port.log.last! == (4000, 0))
        #expect(b.core.state == .configured)
    }

    @Test func reverseDriveNeedsCapabilityAndFlag() {
        let minus = UInt16(bitPattern: -16000)
        var b = Bench()
        b.configure(format: .i16)  // capability yes, flag no
        b.send(Bench.frames(0, [minus], format: .i16), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 1500, by: 100))
        #expect(b.core.port.log.allSatisfy { $0.level >= 0 })

        var c = Bench()
        c.configure(format: .i16, flags: Configure.flagAllowReverse)
        c.send(Bench.frames(0, [minus], format: .i16), at: 0)
        c.start(anchorTick: 1000, at: 0)
        c.run(stride(from: 0, to: 1500, by: 100))
        #expect(c.core.port.log.last?.level == -16000)

        var d = Bench(info: Bench.info(caps: 0))  // no H-bridge
        d.configure(format: .i16, flags: Configure.flagAllowReverse)
        d.send(Bench.frames(0, [minus], format: .i16), at: 0)
        d.start(anchorTick: 1000, at: 0)
        d.run(stride(from: 0, to: 1500, by: 100))
        #expect(d.core.port.log.allSatisfy { $0.level >= 0 })
    }

    @Test func lraCarrierFlipsPolarityEveryHalfPeriod() {
        // 200.0 Hz carrier on a 1 MHz clock: polarity flips every 2500 ticks.
        var b = Bench(info: Bench.info(motor: .lra, caps: Info.capReverse | Info.capLRACarrier))
        b.configure()
        b.send(Bench.frames(0, [UInt16](repeating: 255, count: 10)), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 10_001, by: 10))
        let changes = Array(b.core.port.log.dropFirst())
        #expect(changes.map(\.tick) == [1000, 3500, 6000, 8500])
        #expect(changes.map(\.level) == [32767, -32767, 32767, -32767])
    }

    @Test func aStopAtAFrameAlreadyPlayedStopsAtOnce() {
        var b = Bench(lead: 0)
        b.configure()
        b.send(Bench.frames(0, [UInt16](repeating: 200, count: 20)), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 6_500, by: 100))  // frames 0...5 played
        b.send(.stop(atIndex: 3), at: 6_500)
        #expect(b.core.state == .configured)
        #expect(b.core.port.log.last! == (6_500, 0))
    }

    @Test func aDeferredStopEndsAfterTheLastFramesPeriodAndSaysSo() throws {
        var b = Bench(lead: 2000)
        b.configure(reportEvery: 100)
        b.send(Bench.frames(0, [100, 200, 250]), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.send(.stop(atIndex: 3), at: 0)
        b.run(stride(from: 0, to: 6_000, by: 250))
        // Frame 2 plays from 3000 for its whole period: off at 4000, when frame 3 would be due.
        #expect(b.core.port.log.last! == (4000, 0))
        #expect(b.played.last?.count == 3)
        // The final PLAYED, then an unsolicited STATUS naming the stop's tick (sent up to the lead early).
        let last = b.replies.suffix(2)
        guard case .played? = last.first, case .status(let s)? = last.last else {
            Issue.record("expected PLAYED then STATUS, got \(last)")
            return
        }
        #expect(s.ackSeq == 0 && s.state == .configured && s.tick == 4000)
    }

    @Test func stopInIdleOrFailsafeChangesNothing() {
        var b = Bench()
        b.send(.stop(atIndex: HostMessage.stopNow), at: 0)
        #expect(b.core.state == .idle && b.lastStatus?.state == .idle)
        b.configure(failsafeMs: 20)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 30_000, by: 1000))
        #expect(b.core.state == .failsafe)
        b.send(.stop(atIndex: HostMessage.stopNow), at: 30_000)
        #expect(b.core.state == .failsafe && b.lastStatus?.state == .failsafe)
    }

    @Test func onlyConfigureResetsTheStreamCounters() {
        var b = Bench()
        b.configure()
        b.send(Bench.frames(0, [1, 2]), at: 0)
        b.send(Bench.frames(0, [1]), at: 0)  // a duplicate
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 5_000, by: 100))  // frames 2... underrun
        b.send(.stop(atIndex: HostMessage.stopNow), at: 5_000)
        #expect(b.lastStatus?.duplicateFrames == 1 && (b.lastStatus?.underruns ?? 0) > 0)
        #expect(b.lastStatus?.nextExpected == 0 && b.lastStatus?.nextPlay == 0)
        b.send(.configure(Configure(frameRateHz: 20, dutyFormat: .u8, failsafeMs: 200)), at: 5_000)  // refused
        #expect(b.core.duplicateFrames == 1)
        b.configure(at: 5_000)
        #expect(b.lastStatus?.duplicateFrames == 0 && b.lastStatus?.underruns == 0)
    }

    @Test func aRefusedConfigureLeavesAPlayingStreamAlone() {
        var b = Bench()
        b.configure()
        b.send(Bench.frames(0, [UInt16](repeating: 200, count: 20)), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 3_000, by: 100))
        b.send(.configure(Configure(frameRateHz: 5000, dutyFormat: .u8, failsafeMs: 200)), at: 3_000)
        #expect(b.naks.last?.code == .badConfig && b.naks.last?.detail == 1)
        #expect(b.core.state == .playing && b.core.output != 0)
    }
}
