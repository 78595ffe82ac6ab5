// CLOCK_REQ with hold_ms (protocol.md revision 1.4): the board answers hold_ms after the request arrived,
// with the ticks it held it; one request is held at a time; a HELLO drops it; nextWake names its time.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import MotorWire
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct HeldClockTests {
    /// The answers of `messages` that are CLOCK answers, as (token, tick, held ticks; nil for a plain CLOCK).
    static func clocks(_ messages: [BoardMessage]) -> [(token: UInt32, tick: UInt64, held: UInt32?)] {
        messages.compactMap { m in
            switch m {
            case .clock(let token, let tick): (token, tick, nil)
            case .clockHeld(let token, let tick, let held): (token, tick, held)
            default: nil
            }
        }
    }

    /// At 1 MHz, 45 ms is 45 000 ticks: nothing before, the answer at the first service at or after it,
    /// naming the tick it was made and the ticks since the request arrived. nextWake says when.
    @Test func aHeldRequestIsAnsweredWhenItsHoldIsOver() {
        var b = Bench()
        #expect(b.send(.clockRequestHeld(token: 7, holdMs: 45), at: 1_000).isEmpty)
        #expect(b.core.nextWake(now: 1_000) == 46_000)
        b.run(stride(from: 1_000, to: 46_000, by: 500))
        #expect(Self.clocks(b.replies).isEmpty, "answered before its hold: \(b.replies)")
        b.run(stride(from: 46_300, to: 47_000, by: 1_000))  // the first service after it is due, 300 ticks late
        let c = Self.clocks(b.replies)
        #expect(c.count == 1 && c[0].token == 7 && c[0].tick == 46_300 && c[0].held == 45_300, "\(c)")
        #expect(b.core.nextWake(now: 47_000) == UInt64.max)  // nothing left to do while idle
    }

    /// hold_ms 0 is answered at once in the long form; a plain CLOCK_REQ is still answered at once in the
    /// short one (the 12-byte CLOCK an older host reads).
    @Test func holdZeroAndThePlainRequest() {
        var b = Bench()
        let held = Self.clocks(b.send(.clockRequestHeld(token: 1, holdMs: 0), at: 500))
        #expect(held.count == 1 && held[0].tick == 500 && held[0].held == 0)
        let plain = Self.clocks(b.send(.clockRequest(token: 2), at: 600))
        #expect(plain.count == 1 && plain[0].tick == 600 && plain[0].held == nil)
    }

    /// A second held request answers the first at once (with the ticks it waited) and is held itself; a plain
    /// request in between is answered at once and leaves the held one alone.
    @Test func oneRequestIsHeldAtATime() {
        var b = Bench()
        b.send(.clockRequestHeld(token: 1, holdMs: 100), at: 0)
        let plain = Self.clocks(b.send(.clockRequest(token: 2), at: 5_000))
        #expect(plain.count == 1 && plain[0].token == 2)
        let first = Self.clocks(b.send(.clockRequestHeld(token: 3, holdMs: 10), at: 20_000))
        #expect(first.count == 1 && first[0].token == 1 && first[0].tick == 20_000 && first[0].held == 20_000, "\(first)")
        b.run(stride(from: 20_000, to: 40_000, by: 1_000))
        let last = Self.clocks(b.replies).last
        #expect(last?.token == 3 && last?.tick == 30_000 && last?.held == 10_000, "\(String(describing: last))")
    }

    /// A HELLO (a new host, or the same one starting over) drops a held request unanswered.
    @Test func aHelloDropsAHeldRequest() {
        for hello in [HostMessage.hello, .helloRevision(Wire.revision)] {
            var b = Bench()
            b.send(.clockRequestHeld(token: 9, holdMs: 20), at: 0)
            b.send(hello, at: 1_000)
            b.run(stride(from: 0, to: 100_000, by: 1_000))
            #expect(Self.clocks(b.replies).isEmpty, "\(hello)")
            #expect(b.core.nextWake(now: 100_000) == UInt64.max)
        }
    }

    /// While playing, nextWake is the earlier of the held answer and the next frame.
    @Test func nextWakeIsTheEarlierOfTheAnswerAndTheFrame() {
        var b = Bench()
        b.configure()
        b.send(Bench.frames(0, [10, 20, 30, 40]), at: 100)
        b.start(anchorTick: 10_000, at: 200)
        b.send(.clockRequestHeld(token: 4, holdMs: 5), at: 1_000)  // due at 6 000, before frame 0 at 10 000
        #expect(b.core.nextWake(now: 2_000) == 6_000)
        b.core.service(now: 6_000)
        #expect(Self.clocks(b.collect()).map(\.token) == [4])
        #expect(b.core.nextWake(now: 6_000) == 10_000)
    }
}
