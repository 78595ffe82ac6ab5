// The firmware clock's arithmetic on the host: a 32-bit counter extended to 64 bits across its wrap
// (from the same start as the firmware's --clock-near-wrap build), checked against a true 64-bit count;
// the wake-up delay never early and never longer than asked; BoardCore scheduling across 2^32 ticks.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import MotorWire
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct CounterClockTests {
    /// The true count is a plain 64-bit number; the hardware shows its low 32 bits. Readings come at
    /// random gaps of 1 ... 2^32 - 1 counts (the firmware reads far more often), through many wraps.
    @Test(arguments: [UInt64(0), UInt64(UInt32.max) - 15 * 16_000_000, UInt64(UInt32.max), 0x7FFF_FFFF])
    func extensionFollowsTheTrueCountThroughWraps(start: UInt64) {
        let seed: UInt64 = 0xC10C + start
        var rng = SplitMix(seed: seed)
        var truth = start
        var clock = CounterExtension(raw: UInt32(truncatingIfNeeded: truth))
        #expect(clock.ticks == start)
        var wraps = 0
        for i in 0..<200_000 {
            // Mostly small steps (a busy main loop), sometimes long ones, up to the limit.
            let step: UInt64 = switch i % 4 {
            case 0: rng.next() % 100
            case 1: rng.next() % 1_000_000
            case 2: rng.next() % (1 << 31)
            default: 1 + rng.next() % (UInt64(UInt32.max) - 1)
            }
            let before = truth >> 32
            truth += step
            if truth >> 32 != before { wraps += 1 }
            let ticks = clock.extend(UInt32(truncatingIfNeeded: truth))
            if ticks != truth {
                Issue.record("seed \(seed): reading \(i) gave \(ticks), true count \(truth)")
                return
            }
        }
        #expect(wraps > 10_000, "seed \(seed): only \(wraps) wraps exercised")
    }

    /// Across the wrap one count at a time: no jump back, no jump ahead.
    @Test func everyCountAroundTheWrapIsOneTickMore() {
        var clock = CounterExtension(raw: UInt32.max - 1000)
        var previous = clock.ticks
        for k in 1...2000 as ClosedRange<UInt64> {
            let raw = UInt32(truncatingIfNeeded: UInt64(UInt32.max - 1000) + k)
            let now = clock.extend(raw)
            #expect(now == previous + 1)
            previous = now
        }
        #expect(previous == UInt64(UInt32.max) + 1000)
    }

    /// The documented limit: readings 2^32 counts apart cannot see that a whole wrap went by.
    @Test func aWholeWrapBetweenReadingsIsTheLimit() {
        var clock = CounterExtension(raw: 5)
        #expect(clock.extend(5) == 5)                  // 2^32 counts later reads the same
        #expect(clock.extend(4) == 5 + UInt64(UInt32.max))  // 2^32 - 1 later is still right
    }

    /// Wake delays: never early (the cycles cover the ticks), never a whole cycle more, within the bounds.
    static let rates: [(clockHz: UInt32, cpuHz: UInt32)] = [
        (20_000_000, 168_000_000), (16_000_000, 16_000_000), (1_000_000, 16_000_000), (32_768, 16_000_000),
        (UInt32.max, 100_000_000),
    ]

    @Test(arguments: 0..<5)
    func wakeDelayIsNeverEarlyNorLonger(rate: Int) {
        let (clockHz, cpuHz) = Self.rates[rate]
        let seed: UInt64 = 0x3A4E + UInt64(clockHz)
        var rng = SplitMix(seed: seed)
        let maxCycles: UInt32 = min(cpuHz / 20, 0xFF_FFFF)
        for _ in 0..<100_000 {
            let now = rng.next() >> 1
            let ahead = rng.next() % (2 * UInt64(maxCycles) * UInt64(clockHz) / UInt64(cpuHz) + 2)
            let c = WakeDelay.cycles(from: now, to: now + ahead, clockHz: clockHz, cpuHz: cpuHz, maxCycles: maxCycles)
            // The exact answer in rational arithmetic: the fewest cycles covering `ahead` ticks
            // (c / cpuHz >= ahead / clockHz), at least 2, at most the longest sleep.
            let product = ahead * UInt64(cpuHz)  // < 2^58 here
            let exact = product / UInt64(clockHz) + (product % UInt64(clockHz) == 0 ? 0 : 1)
            let expected = UInt32(min(max(exact, 2), UInt64(maxCycles)))
            if c != expected {
                Issue.record("seed \(seed): \(ahead) ticks -> \(c) cycles, expected \(expected)")
                return
            }
        }
        #expect(WakeDelay.cycles(from: 100, to: 50, clockHz: clockHz, cpuHz: cpuHz, maxCycles: maxCycles) == 2)
        #expect(WakeDelay.cycles(from: 0, to: .max, clockHz: clockHz, cpuHz: cpuHz, maxCycles: maxCycles) == maxCycles)
    }

    /// BoardCore plays frames at their exact ticks while the board clock passes 2^32 (a 16 MHz clock
    /// does after 268 s): no 32-bit arithmetic hides in the scheduler, failsafe or reports.
    @Test func boardCorePlaysAcrossTwoToThe32Ticks() {
        var b = Bench()
        let t0 = UInt64(UInt32.max) - 10_500  // frames every 1000 ticks cross 2^32 at frame 10
        b.configure(at: t0, reportEvery: 5)
        let values: [UInt16] = (0..<30).map { UInt16(10 + $0) }
        b.send(Bench.frames(0, values), at: t0)
        b.start(anchorTick: t0 + 1000, at: t0)
        b.run(stride(from: t0, to: t0 + 40_000, by: 250))
        let changes = b.core.port.log.filter { $0.level != 0 }
        #expect(changes.count == 30)
        for (k, change) in changes.enumerated() {
            #expect(change.tick == t0 + 1000 + UInt64(k) * 1000, "frame \(k)")
            #expect(change.level == DutyFormat.u8.level(values[k]))
        }
        let played = b.played
        #expect(played.map(\.count).reduce(0, +) == 30)
        #expect(played.allSatisfy { $0.lateCount == 0 })
        #expect(played.contains { $0.firstTick < 1 << 32 } && played.contains { $0.firstTick > 1 << 32 })
        // ... and the failsafe still counts from the last message, 200 ms = 200,000 ticks on this clock.
        b.run(stride(from: t0 + 40_000, to: t0 + 202_000, by: 1000))
        #expect(b.core.state == .failsafe)
    }
}
