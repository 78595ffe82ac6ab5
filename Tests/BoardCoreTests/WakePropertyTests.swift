// Property: whatever the clock rate, frame period, output lead, carrier and stop, waking the board when
// `nextWake` says always lets it do something, or moves the next wake later. A wake that does nothing
// spins an MCU and livelocked the virtual-time simulation (issue 10).
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import MotorWire
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct WakePropertyTests {
    @Test func nextWakeAlwaysAdvances() {
        let base = UInt64.random(in: 0..<1_000_000)
        for seed in base..<(base + 300) {
            var rng = SplitMix(seed: seed)
            let clocks: [UInt32] = [32_768, 1_000_000, 16_000_000, 168_000_000]
            let hz = clocks[Int(rng.next() % 4)]
            let rate = 50 + Int(rng.next() % 951)
            let ppb = Int64(rng.next() % 100_000_001) - 50_000_000  // +-5 %
            let lra = rng.next() % 3 == 0
            let info = Info(firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0, motorKind: lra ? .lra : .erm, pwmBits: 16,
                            capabilities: lra ? Info.capReverse | Info.capLRACarrier : Info.capReverse,
                            bufferCapacity: 64, minFrameRateHz: 50, maxFrameRateHz: 1000, clockHz: hz, uniqueID: 1,
                            lraResonanceDeciHz: lra ? UInt16(1000 + rng.next() % 2000) : 0, name: BoardName("p"))
            let lead = rng.next() % 2 == 0 ? 0 : rng.next() % (UInt64(hz) / 20 + 1)
            var b = Bench(info: info, lead: lead)
            b.send(.configure(Configure(frameRateHz: UInt16(rate), dutyFormat: .u8, failsafeMs: 200, reportEvery: 5)), at: 0)
            // Frames with holes, some never sent.
            for first in stride(from: UInt32(0), to: 40, by: 8) where rng.next() % 4 != 0 {
                b.send(Bench.frames(first, (0..<8).map { _ in UInt16(rng.next() % 256) }), at: 0)
            }
            let period = Start.periodQ32(clockHz: hz, frameRate: rate, driftPPB: ppb)
            let anchor = 1 + rng.next() % UInt64(hz)
            b.send(.start(Start(anchorIndex: 0, anchorTick: anchor, periodQ32: period)), at: 0)
            if rng.next() % 2 == 0 { b.send(.stop(atIndex: UInt32(rng.next() % 48)), at: 0) }
            var t: UInt64 = 0
            var wakes = 0
            while wakes < 5_000 {
                let w = b.core.nextWake(now: t)
                #expect(w >= t, "seed \(seed): wake \(w) before now \(t)")
                guard w != UInt64.max, w >= t else { break }
                let before = (b.core.nextPlay, b.core.state, b.core.port.log.count, b.replies.count)
                t = w
                b.core.service(now: t)
                b.collect()
                wakes += 1
                let progressed = before != (b.core.nextPlay, b.core.state, b.core.port.log.count, b.replies.count)
                if !progressed && b.core.nextWake(now: t) <= t {
                    Issue.record("seed \(seed): woken at \(t) for nothing (hz \(hz), rate \(rate), ppb \(ppb), lead \(lead), lra \(lra))")
                    break
                }
            }
            // It ends: stopped, or the failsafe fired (no message for 200 ms), well within the wake budget.
            #expect(b.core.state == .configured || b.core.state == .failsafe, "seed \(seed): still \(b.core.state) after \(wakes) wakes")
        }
    }
}
