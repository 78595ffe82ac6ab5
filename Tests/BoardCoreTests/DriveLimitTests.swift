// The drive ceiling in BoardCore: overdrive above it only for the budget, held at the ceiling until the
// budget is whole again, the same for reverse drive and the LRA carrier, with and without an output lead;
// LIMITS_REQ answered (or NAKed by a board without limits). Judged on the port's log of output changes.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import MotorWire
import TestSupport
import Testing

/// 60 % ceiling (a 3 V motor on 5 V), 50 ms overdrive, 500 ms recovery: on the 1 MHz bench clock,
/// 50,000 ticks of overdrive and 500,000 ticks to earn it back.
let testLimits = Limits(ratedMillivolts: 3000, supplyMillivolts: 5000, overdriveMs: 50, recoveryMs: 500)

/// Runs of the output above the ceiling, from a port log: start and end tick, and whether the run ended
/// by dropping to exactly the ceiling (a clamp: the tests never send 153, the one u8 value whose level
/// is exactly 19660).
func overdriveRuns(_ log: [(tick: UInt64, level: Int16)], ceiling: Int16, until end: UInt64)
    -> [(start: UInt64, end: UInt64, clamped: Bool)]
{
    var runs: [(UInt64, UInt64, Bool)] = []
    var start: UInt64?
    for (tick, level) in log {
        let above = level.magnitude > ceiling.magnitude
        if above && start == nil { start = tick }
        if !above, let s = start {
            runs.append((s, tick, level.magnitude == ceiling.magnitude))
            start = nil
        }
    }
    if let s = start { runs.append((s, end, false)) }
    return runs
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct DriveLimitTests {
    let ceiling = Int16(testLimits.ceilingLevel)

    @Test func theCeilingIsRatedOverSupply() {
        #expect(testLimits.ceilingLevel == 19660)  // 3000 / 5000 of 32767
        let lra = Limits(ratedMillivolts: 2000, supplyMillivolts: 5000, overdriveMs: 20, recoveryMs: 200)
        #expect(lra.ceilingLevel == 13106)
        #expect(Limits(ratedMillivolts: 6000, supplyMillivolts: 5000, overdriveMs: 1, recoveryMs: 1).ceilingLevel == 32767)
    }

    /// What a host gets that asks for full drive for ever, as protocol.md, the guides and `info` say: the
    /// budget above the ceiling, then the ceiling until the budget is whole, again and again: a long-run
    /// mean of 63.6 % of full drive for the 3 V ERM on 5 V, 45.5 % for the 2 V LRA (its ceiling 40 %). The
    /// oracle is the board's rule itself (OverdriveGuard, what every board runs), over 20 s at 1 ms steps.
    @Test(arguments: [(testLimits, 0.636), (Limits(ratedMillivolts: 2000, supplyMillivolts: 5000, overdriveMs: 20, recoveryMs: 200), 0.455)])
    func fullDriveForEverHasTheStatedMean(limits: Limits, stated: Double) {
        var guardian = OverdriveGuard(limits: limits, clockHz: 1_000_000)
        var area = 0.0
        for ms in 0..<20_000 {
            area += Double(guardian.apply(32767, at: UInt64(ms) * 1000).magnitude)
        }
        let mean = area / 20_000 / 32767
        #expect(abs(mean - limits.fullDriveMeanLevel / 32767) < 0.002, "the rule gives \(mean), Limits says \(limits.fullDriveMeanLevel / 32767)")
        #expect(abs(limits.fullDriveMeanLevel / 32767 - stated) < 0.0005, "\(limits.fullDriveMeanLevel / 32767)")
    }

    /// Full drive held for 200 ms (4 ms frames): above the ceiling for exactly the 50 ms budget, which
    /// ends in the middle of a frame, then at the ceiling.
    @Test func fullDriveDropsToTheCeilingWhenTheBudgetIsSpent() {
        var b = Bench(info: Bench.info(capacity: 1024), limits: testLimits)
        b.configure(reportEvery: 0)
        b.send(Bench.frames(0, [UInt16](repeating: 255, count: 50)), at: 0)
        b.start(anchorTick: 1000, at: 0, periodTicks: 4000)
        b.run(stride(from: 0, to: 150_000, by: 250))
        let log = b.core.port.log.filter { $0.level != 0 }
        #expect(log.count == 2)
        #expect(log.first! == (1000, 32767))
        #expect(log.last! == (51_000, ceiling))  // at the deadline tick, not at the next frame
        #expect(b.core.output == ceiling)
        #expect(b.core.overdrive?.lockedOut == true)
    }

    /// A spent budget allows no overdrive until it is whole: 100 ms full, 100 ms off, 100 ms full.
    @Test func aSpentBudgetHoldsTheCeilingUntilItIsWhole() {
        var b = Bench(info: Bench.info(capacity: 1024), limits: testLimits)
        b.configure(failsafeMs: 10_000, reportEvery: 0)
        let full = [UInt16](repeating: 255, count: 100), off = [UInt16](repeating: 0, count: 100)
        b.send(Bench.frames(0, full + off), at: 0)
        b.send(Bench.frames(200, full), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 302_000, by: 500))
        let runs = overdriveRuns(b.core.port.log, ceiling: ceiling, until: 302_000)
        #expect(runs.count == 1 && runs[0] == (1000, 51_000, true))
        // The second burst starts at the ceiling itself, and stays there.
        #expect(b.core.port.log.contains { $0 == (201_000, ceiling) })
    }

    /// Bursts shorter than the budget, with rest between, all pass; the budget refills meanwhile.
    @Test func shortBurstsWithRestPassUnclamped() {
        var b = Bench(info: Bench.info(capacity: 1024), limits: testLimits)
        b.configure(failsafeMs: 10_000, reportEvery: 0)
        // 20 ms full, 200 ms at 40 % (below the ceiling), repeated four times.
        var values: [UInt16] = []
        for _ in 0..<4 { values += [UInt16](repeating: 255, count: 20) + [UInt16](repeating: 102, count: 200) }
        for first in stride(from: 0, to: values.count, by: 200) {
            b.send(Bench.frames(UInt32(first), Array(values[first..<min(first + 200, values.count)])), at: 0)
        }
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 900_000, by: 500))
        let runs = overdriveRuns(b.core.port.log, ceiling: ceiling, until: 900_000)
        #expect(runs.count == 4)
        #expect(runs.allSatisfy { $0.end - $0.start == 20_000 })
        #expect(!b.core.port.log.contains { $0.level == ceiling })  // never clamped
    }

    /// Reverse drive (braking on an H-bridge) is bounded by magnitude too.
    @Test func reverseDriveIsBoundedByItsMagnitude() {
        var b = Bench(info: Bench.info(capacity: 1024), limits: testLimits)
        b.configure(format: .i16, reportEvery: 0, flags: Configure.flagAllowReverse)
        b.send(Bench.frames(0, [UInt16](repeating: UInt16(bitPattern: -32767), count: 100), format: .i16), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 102_000, by: 500))
        let log = b.core.port.log.filter { $0.level != 0 }
        #expect(log.map(\.level) == [-32767, -ceiling])
        #expect(log.last!.tick == 51_000)
    }

    /// The LRA carrier's alternating polarity spends the budget as one run, then alternates at ±ceiling.
    @Test func lraCarrierIsClampedToPlusMinusTheCeiling() {
        var b = Bench(info: Bench.info(motor: .lra, capacity: 1024, caps: Info.capReverse | Info.capLRACarrier),
                      limits: Limits(ratedMillivolts: 2000, supplyMillivolts: 5000, overdriveMs: 20, recoveryMs: 200))
        let ceiling: Int16 = 13106
        b.configure(reportEvery: 0)
        b.send(Bench.frames(0, [UInt16](repeating: 255, count: 60)), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 62_000, by: 10))
        let changes = b.core.port.log.filter { $0.level != 0 }
        let overdriven = changes.filter { $0.level.magnitude > ceiling.magnitude }
        #expect(overdriven.first!.tick == 1000)
        #expect(overdriven.last!.tick < 21_000)
        #expect(changes.contains { $0 == (21_000, ceiling) || $0 == (21_000, -ceiling) })
        #expect(changes.filter { $0.tick > 21_000 }.allSatisfy { $0.level.magnitude == ceiling.magnitude })
    }

    /// Random streams, several output leads: no run above the ceiling lasts longer than the budget, and a
    /// run the board cut short at the ceiling is followed by at least the recovery time at or below it.
    @Test(arguments: [UInt64(0), 5_000, 50_000])
    func noRunAboveTheCeilingOutlastsTheBudget(lead: UInt64) {
        let seed: UInt64 = 0xD21E + lead
        var rng = SplitMix(seed: seed)
        var b = Bench(info: Bench.info(capacity: 1024), lead: lead, limits: testLimits)
        b.configure(failsafeMs: 10_000, reportEvery: 0)
        var values: [UInt16] = []
        while values.count < 5000 {
            // Runs of 1-120 frames at a random level: full, above, just below and below the ceiling, off.
            let level: UInt16 = [255, 200, 152, 100, 0][Int(rng.next() % 5)]
            values += [UInt16](repeating: level, count: 1 + Int(rng.next() % 120))
        }
        values = Array(values.prefix(5000))
        b.start(anchorTick: 1000, at: 0)
        var sent = 0
        for t in stride(from: UInt64(0), to: 5_000_500, by: 500) {
            // Keep about 200 frames ahead, as a host would.
            while sent < values.count && UInt64(sent) * 1000 < t + 200_000 {
                let n = min(200, values.count - sent)
                b.send(Bench.frames(UInt32(sent), Array(values[sent..<sent + n])), at: t)
                sent += n
            }
            b.core.service(now: t)
        }
        b.collect()
        let runs = overdriveRuns(b.core.port.log, ceiling: ceiling, until: 5_000_500)
        #expect(runs.count > 5, "seed \(seed): too few overdrive runs to mean anything")
        for (k, run) in runs.enumerated() {
            #expect(run.end - run.start <= 50_000, "seed \(seed): run \(k) lasted \(run.end - run.start) ticks")
            if run.clamped, k + 1 < runs.count {
                #expect(runs[k + 1].start - run.end >= 500_000, "seed \(seed): overdrive again after \(runs[k + 1].start - run.end) ticks")
            }
        }
        #expect(runs.filter(\.clamped).count > 2, "seed \(seed): the budget was hardly ever spent")
        #expect(b.core.underruns == 0, "seed \(seed)")
    }

    @Test func limitsRequestIsAnsweredWithTheBudgetLeft() {
        var b = Bench(info: Bench.info(capacity: 1024), limits: testLimits)
        let fresh = b.send(.limitsRequest, at: 0)
        #expect(fresh == [.limits(testLimits)])
        b.configure(reportEvery: 0)
        b.send(Bench.frames(0, [UInt16](repeating: 255, count: 30)), at: 0)
        b.start(anchorTick: 1000, at: 0)
        b.run(stride(from: 0, to: 31_000, by: 500))  // 30 ms of the 50 ms spent
        guard case .limits(let l)? = b.send(.limitsRequest, at: 31_000).first else {
            Issue.record("no LIMITS")
            return
        }
        #expect(l.availableMs == 20)
        #expect(l.ceilingLevel == testLimits.ceilingLevel && l.overdriveMs == 50 && l.recoveryMs == 500)
    }

    @Test func aBoardWithoutLimitsAnswersUnknownType() {
        var b = Bench()
        let reply = b.send(.limitsRequest, at: 0)
        guard case .nak(let n)? = reply.first else {
            Issue.record("expected NAK, got \(reply)")
            return
        }
        #expect(n.code == .unknownType && n.refType == 0x08 && n.detail == 0x08)
    }
}
