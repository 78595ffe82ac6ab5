// BoardCore safety: failsafe, STOP now and at an index, reverse drive gating, LRA carrier.

import BoardCore
import MotorWire
import Testing

@Suite struct SafetyTests {
    @Test func failsafeTurnsTheMotorOffAfterSilence() {
        var b = Bench()
        b.configure(failsafeMs: 200)
        b.send(Bench.frames(0, [UInt16](repeating: 255, count: 60)), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 200_000, by: 500))
        #expect(b.core.state == .playing)  // 200 ms after the last message: not yet
        #expect(b.core.output != 0 || b.core.underruns > 0)
        b.run(stride(from: 200_000, to: 201_500, by: 500))
        #expect(b.core.state == .failsafe)
        #expect(b.core.output == 0)
        #expect(b.core.port.log.last?.level == 0)
        #expect(b.core.port.log.last!.tick <= 200_001 + 500)
        #expect(b.core.failsafeTrips == 1)
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
}
