// Conformance clause for held CLOCK requests (protocol.md section 4, revision 1.4): CLOCK_REQ with hold_ms is
// answered no sooner than hold_ms later on the board's clock, with the ticks it was held; one request is
// held at a time; a HELLO drops it.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorWire

extension Conformance {
    static let clockHoldClauses: [Clause] = [
        Clause("clock.hold", "4", "CLOCK_REQ with hold_ms is answered hold_ms later with the ticks it was held, one at a time",
               since: .r1_4) { rig in
            /// The 16-byte CLOCK answering `token` within `ms`, and when it came (host ns); nil if none came.
            func answer(_ token: UInt32, within ms: Int) throws -> (tick: UInt64, held: UInt64, atNs: UInt64)? {
                let got = try rig.collect(ms: ms) { m in
                    switch m {
                    case .clock(let t, _), .clockHeld(let t, _, _): t == token
                    default: false
                    }
                }
                for m in got {
                    if case .clockHeld(let t, let tick, let held) = m, t == token { return (tick, UInt64(held), rig.nowNs) }
                    if case .clock(let t, _) = m, t == token {
                        throw ClauseFailure(description: "CLOCK_REQ with hold_ms, token \(token): expected a 16-byte CLOCK with held, got the 12-byte one")
                    }
                }
                return nil
            }
            func ticks(_ ms: UInt64) -> UInt64 { ms * rig.clockHz / 1000 }

            // 30 ms: not answered sooner on the board's clock; the held ticks fit between the board clock read
            // before and after, and within the round trip the host saw (the board clock within 5 %).
            let before = try rig.boardNow()
            let sentNs = rig.nowNs
            try rig.send(.clockRequestHeld(token: 0x401D_0001, holdMs: 30))
            guard let a = try answer(0x401D_0001, within: 500) else {
                throw ClauseFailure(description: "CLOCK_REQ token 0x401D0001 hold_ms 30: expected CLOCK within 500 ms, got nothing")
            }
            let after = try rig.boardNow()
            let waitedTicks = Double(a.atNs - sentNs) * Double(rig.clockHz) / 1e9 * 1.05
            try require(a.held + 1 >= ticks(30), "hold_ms 30: expected at least \(ticks(30)) ticks held (30 ms at clock_hz), got held \(a.held)")
            try require(Double(a.held) <= waitedTicks + 1,
                        "hold_ms 30: expected at most the \(Int(waitedTicks)) ticks the host waited (at clock_hz + 5 %), got held \(a.held)")
            try require(before <= a.tick - a.held && a.tick <= after,
                        "hold_ms 30: expected the arrival and answer ticks between the clock read before (\(before)) and after (\(after)), got arrival \(a.tick - a.held), answer \(a.tick)")

            // hold_ms 0: at once, in the long form.
            try rig.send(.clockRequestHeld(token: 0x401D_0002, holdMs: 0))
            guard let zero = try answer(0x401D_0002, within: 500) else {
                throw ClauseFailure(description: "CLOCK_REQ hold_ms 0: expected CLOCK within 500 ms, got nothing")
            }
            try require(zero.held <= ticks(1), "hold_ms 0: expected an answer at once (held at most 1 ms), got held \(zero.held) ticks")

            // One at a time: a 200 ms hold is answered at once when the next held request comes (a plain
            // request meanwhile is answered and leaves it alone), and the next one is held in turn.
            let longSentNs = rig.nowNs
            try rig.send(.clockRequestHeld(token: 0x401D_0003, holdMs: 200))
            Thread.sleep(forTimeInterval: 0.02)
            _ = try rig.boardNow()
            try rig.send(.clockRequestHeld(token: 0x401D_0004, holdMs: 30))
            guard let first = try answer(0x401D_0003, within: 500) else {
                throw ClauseFailure(description: "two held CLOCK_REQs: expected the first answered when the second came, got nothing")
            }
            try require(first.atNs - longSentNs < 150_000_000 && first.held < ticks(150),
                        "two held CLOCK_REQs: expected the first (hold_ms 200) answered when the second came, about 20 ms after it was sent, got it \((first.atNs - longSentNs) / 1_000_000) ms after, held \(first.held) ticks")
            guard let second = try answer(0x401D_0004, within: 500) else {
                throw ClauseFailure(description: "two held CLOCK_REQs: expected the second answered after its 30 ms, got nothing")
            }
            try require(second.held + 1 >= ticks(30), "the second held CLOCK_REQ: expected at least \(ticks(30)) ticks held, got \(second.held)")

            // A HELLO drops the held request.
            try rig.send(.clockRequestHeld(token: 0x401D_0005, holdMs: 50))
            _ = try rig.exchange(.helloRevision(Wire.revision))
            if let dropped = try answer(0x401D_0005, within: 200) {
                throw ClauseFailure(description: "a HELLO after a held CLOCK_REQ: expected it dropped, got its answer (held \(dropped.held) ticks)")
            }
            return .pass("held \(a.held) ticks for hold_ms 30 (\((a.atNs - sentNs) / 1_000_000) ms at the host); hold_ms 0 at once; one at a time; dropped by HELLO")
        },
    ]
}
