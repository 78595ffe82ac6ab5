// BoardCore playback in board ticks: exact output ticks, underruns, late/duplicate/gap/full handling.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import MotorWire
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SchedulerTests {
    @Test func bootAnnouncesInfoAndMotorIsOff() {
        let b = Bench()
        #expect(b.replies.count == 1)
        if case .info(let i)? = b.replies.first { #expect(i == Bench.info()) } else { Issue.record("no INFO at boot") }
        #expect(b.core.port.log.map(\.level) == [0])
    }

    @Test func framesPlayExactlyAtTheirTicks() {
        var b = Bench()
        b.configure()
        b.send(Bench.frames(0, [255, 0, 51, 102]), at: 10)
        b.start(anchorTick: 5000, at: 20)
        #expect(b.core.state == .armed)
        b.run(stride(from: 0, to: 10_000, by: 7))  // an uneven service cadence
        // With no output lead, each level appears at the first service at or after its tick: frames are due
        // at 5000, 6000, 7000, 8000 (and frame 4, never sent, at 9000); services fall on multiples of 7.
        let changes = Array(b.core.port.log.dropFirst())
        #expect(changes.map(\.level) == [32767, 0, 6553, 13106, 0])  // u8 x 32767 / 255; then frame 4: 0
        #expect(changes.map(\.tick) == [5005, 6006, 7000, 8001, 9002])
        #expect(b.core.underruns > 0)
        let played = b.played
        #expect(played.count == 1)
        #expect(played.first?.count == 4)
        #expect(played.first?.dutyCRC == crc([255, 0, 51, 102]))
        #expect(played.first?.firstTick == 5005)
        #expect(played.first?.lateCount == 3)  // 5005, 6006, 8001 are late; 7000 is on time
        #expect(played.first?.maxLateTicks == 6)
    }

    @Test func outputLeadMakesTicksExactWhateverTheServiceCadence() {
        var b = Bench(lead: 2000)
        b.configure()
        b.send(Bench.frames(0, [10, 20, 30, 40, 50, 60, 70, 80]), at: 0)
        b.start(anchorTick: 10_000, at: 0)
        b.run(stride(from: 0, to: 30_000, by: 1337))  // serviced every 1.337 ms, frames every 1 ms
        let changes = Array(b.core.port.log.dropFirst())
        #expect(changes.prefix(8).map(\.tick) == [10_000, 11_000, 12_000, 13_000, 14_000, 15_000, 16_000, 17_000])
        #expect(b.played.prefix(2).map(\.lateCount) == [0, 0])
        #expect(b.played.prefix(2).map(\.maxLateTicks) == [0, 0])
        #expect(b.played.first?.firstTick == 10_000)
        // Frame 8 never arrived. An underrun can only be declared at a service at or after its tick
        // (data may still come): the first service after 18 000 is at 18 718, and outputs 0 then.
        #expect(changes.last! == (18_718, 0))
        #expect(b.core.underruns > 0)
    }

    @Test func lateServiceIsReportedWithItsLateness() {
        var b = Bench()
        b.configure(reportEvery: 1)
        b.send(Bench.frames(0, [100, 200]), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.core.service(now: 1000)  // on time
        b.core.service(now: 2350)  // frame 1 due at 2000: 350 ticks late
        b.collect()
        #expect(b.played.map(\.lateCount) == [0, 1])
        #expect(b.played.map(\.maxLateTicks) == [0, 350])
        #expect(b.played.map(\.firstTick) == [1000, 2350])
    }

    @Test func underrunPlaysZeroAndLateCopyIsDropped() {
        var b = Bench()
        b.configure()
        b.send(Bench.frames(0, [200]), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 2500, by: 100))  // frame 1 (due 2000) never came
        #expect(b.core.underruns == 1)
        #expect(b.core.output == 0)
        b.send(Bench.frames(1, [200, 201]), at: 2500)  // frame 1 is now late, frame 2 is fine
        #expect(b.core.lateFrames == 1)
        #expect(b.core.nextExpected == 3)
        #expect(b.naks.isEmpty)
    }

    @Test func duplicatesAreCountedNotStoredTwice() {
        var b = Bench()
        b.configure()
        b.send(Bench.frames(0, [1, 2, 3]), at: 0)
        b.send(Bench.frames(1, [2, 3, 4]), at: 0)
        #expect(b.core.duplicateFrames == 2)
        #expect(b.core.nextExpected == 4)
    }

    @Test func gapIsRefusedWithTheExpectedIndex() {
        var b = Bench()
        b.configure()
        b.send(Bench.frames(0, [1, 2]), at: 0)
        b.send(Bench.frames(5, [6]), at: 0)
        #expect(b.naks.map(\.code) == [.gap])
        #expect(b.naks.first?.detail == 2)
        #expect(b.core.nextExpected == 2)
    }

    @Test func windowIsTheBufferCapacity() {
        var b = Bench()  // capacity 64
        b.configure()
        b.send(Bench.frames(0, [UInt16](repeating: 9, count: 60)), at: 0)
        b.send(Bench.frames(60, [UInt16](repeating: 9, count: 10)), at: 0)
        #expect(b.naks.map(\.code) == [.bufferFull])
        #expect(b.naks.first?.detail == 64)
        #expect(b.core.nextExpected == 64)
        #expect(b.lastStatus?.free == 0)
    }

    @Test func indexWrapAroundAt2To32() {
        var b = Bench()
        b.configure()
        b.send(.start(Start(anchorIndex: 0, anchorTick: 10_000, periodQ32: 1000 << 32)), at: 0)
        // Frames are only accepted from next_expected = 0; a FRAMES at 2^32 - 2 is a duplicate/late, not a gap.
        b.send(Bench.frames(UInt32.max - 1, [1, 2]), at: 0)
        #expect(b.naks.isEmpty)
        #expect(b.core.lateFrames == 2)
        #expect(Timebase(anchorIndex: UInt32.max, anchorTick: 5000, periodQ32: 1000 << 32).due(1) == 7000)
    }

    @Test func framesBeforeConfigureAreRefused() {
        var b = Bench()
        b.send(Bench.frames(0, [1]), at: 0)
        b.send(.start(Start(anchorIndex: 0, anchorTick: 0, periodQ32: 1 << 32)), at: 0)
        #expect(b.naks.map(\.code) == [.notConfigured, .notConfigured])
    }

    @Test func badConfigIsRefusedWithTheReason() {
        var b = Bench()
        b.send(.configure(Configure(frameRateHz: 20, dutyFormat: .u8, failsafeMs: 200)), at: 0)
        b.send(.configure(Configure(frameRateHz: 250, dutyFormat: .u8, failsafeMs: 5)), at: 0)
        #expect(b.naks.map(\.code) == [.badConfig, .badConfig])
        #expect(b.naks.map(\.detail) == [1, 3])
        #expect(b.core.state == .idle)
    }

    @Test func unknownTypeAndCorruptFramesAreCounted() {
        var b = Bench()
        var wire = FixedBytes()
        _ = Packet(type: 0x42, seq: 9).encode(into: &wire)
        for i in 0..<wire.count { b.core.receive(wire[i], now: 0) }
        var corrupt = FixedBytes()
        _ = HostMessage.heartbeat.encode(seq: 1, into: &corrupt)
        corrupt[corrupt.count - 2] ^= 0x01  // last CRC byte: still valid COBS, wrong CRC
        for i in 0..<corrupt.count { b.core.receive(corrupt[i], now: 0) }
        b.collect()
        #expect(b.naks.map(\.code) == [.unknownType])
        #expect(b.naks.first?.detail == 0x42)
        b.send(.heartbeat, at: 0)
        #expect(b.lastStatus?.rxCRCErrors == 1)
        #expect(b.lastStatus?.rxOtherErrors == 1)
    }

    @Test func fractionalPeriodTracksADriftingClock() {
        // 250 Hz on a board clock 500 ppm fast: 4002 ticks per frame, in 32.32.
        let period = Start.periodQ32(clockHz: 1_000_000, frameRate: 250, driftPPB: 500_000)
        let tb = Timebase(anchorIndex: 0, anchorTick: 0, periodQ32: period)
        #expect(tb.due(150_000) == 600_300_000)  // 10 minutes of frames: 600 s * 1.0005 MHz
        // Full-width multiply: no overflow for huge products.
        let big = Timebase(anchorIndex: 0, anchorTick: 0, periodQ32: UInt64(100_000_000) << 32)
        #expect(big.due(2_000_000_000) == 200_000_000_000_000_000)
    }
}

func crc(_ values: [UInt16]) -> UInt16 { CRC16.ofDuties(values) }

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct WakeTests {
    /// With an output lead and the next frame not yet received, the board must not ask to be woken
    /// before it can do anything (that spins a real MCU, and stalls a virtual-time simulation).
    @Test func wakingAlwaysMakesProgress() {
        var b = Bench(lead: 5000)
        b.configure()
        b.send(Bench.frames(0, [10, 20]), at: 0)
        b.start(anchorTick: 10_000, at: 0)
        var t: UInt64 = 0
        var wakes = 0
        while t < 30_000 && wakes < 1000 {
            let w = b.core.nextWake(now: t)
            guard w != UInt64.max else { break }
            let before = (b.core.nextPlay, b.core.state)
            t = w
            b.core.service(now: t)
            b.collect()
            wakes += 1
            // Each wake either plays a frame or changes state, or the next wake is later.
            #expect(b.core.nextPlay != before.0 || b.core.state != before.1 || b.core.nextWake(now: t) > t,
                    "woken at \(t) for nothing")
        }
        #expect(wakes < 1000)
        #expect(b.core.underruns > 0)  // frames 2... never came: declared at their ticks
    }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SelectiveRepeatTests {
    @Test func framesPastAHoleAreKeptAndTheHoleIsNamed() {
        var b = Bench()
        b.configure()
        b.send(Bench.frames(0, [1, 2]), at: 0)
        b.send(Bench.frames(4, [5, 6]), at: 0)         // 2 and 3 lost on the line
        #expect(b.naks.map(\.code) == [.gap])
        #expect(b.naks.first?.detail == 2)
        #expect(b.core.nextExpected == 2)
        b.send(Bench.frames(2, [3, 4]), at: 0)         // the repair fills the hole
        #expect(b.core.nextExpected == 6)              // and the frames past it count again
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 6_500, by: 100))
        #expect(b.core.underruns == 0)
        #expect(b.played.first?.dutyCRC == crc([1, 2, 3, 4]))
    }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ReplaceTests {
    @Test func replaceOverwritesBufferedFramesNotThoseAlreadyOutput() {
        var b = Bench()
        b.configure(reportEvery: 100)
        b.send(Bench.frames(0, [UInt16](repeating: 10, count: 8)), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 3_500, by: 100))  // frames 0, 1, 2 output
        var v = DutyValues()
        for x: UInt16 in [90, 91, 92, 93] { v.append(x) }
        b.send(.replace(FramesBlock(firstIndex: 2, format: .u8, values: v)), at: 3_500)
        #expect(b.core.lateFrames == 1)        // frame 2 was already out: dropped, counted late
        #expect(b.core.duplicateFrames == 0)   // frames 3...5 overwritten, not duplicates
        b.send(Bench.frames(6, [11, 12]), at: 3_500)
        b.send(.stop(atIndex: 8), at: 3_500)
        b.run(stride(from: 3_500, to: 12_000, by: 100))
        #expect(b.played.last?.dutyCRC == crc([10, 10, 10, 91, 92, 93, 10, 10]))
    }
}
