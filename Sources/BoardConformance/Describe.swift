// One-line texts of what a board sent, for failure messages: every failure says what was expected and
// what came, in protocol.md's names rather than as a dump of Swift values.
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import MotorWire

extension Status {
    var brief: String {
        "STATUS \(state) ack_seq \(ackSeq) fill \(fill) free \(free) next_expected \(nextExpected) next_play \(nextPlay) "
            + "underruns \(underruns) late \(lateFrames) duplicates \(duplicateFrames) output \(output) tick \(tick)"
    }
}

extension Nak {
    var brief: String { "NAK \(code) detail \(detail) (ref_seq \(refSeq), ref_type 0x\(String(refType, radix: 16)))" }
}

extension Played {
    var brief: String {
        "PLAYED frames \(firstIndex)...\(Int(firstIndex) + Int(count) - 1) late_count \(lateCount) duty_crc 0x\(String(dutyCRC, radix: 16, uppercase: true)) first_tick \(firstTick)"
    }
}

extension BoardMessage {
    var brief: String {
        switch self {
        case .info(let i): "INFO \(i.displayName)\(i.revision.map { " revision 1.\($0)" } ?? "")"
        case .clock(let token, let tick): "CLOCK token \(token) tick \(tick)"
        case .clockHeld(let token, let tick, let held): "CLOCK token \(token) tick \(tick) held \(held)"
        case .status(let s): s.brief
        case .nak(let n): n.brief
        case .played(let p): p.brief
        case .limits(let l): "LIMITS ceiling \(l.ceilingLevel) overdrive \(l.overdriveMs) ms"
        case .sensor(let s): "SENSOR rate \(s.rateHz) Hz axes \(s.axes) batch \(s.batch) interval \(s.intervalTicks)"
        case .samples(let b): "SAMPLES seq \(b.seq) count \(b.count) lost \(b.lost) first_tick \(b.firstTick)"
        }
    }
}

extension Array where Element == BoardMessage {
    /// "NAK gap detail 10 (...), STATUS ...", or "nothing".
    var brief: String { isEmpty ? "nothing" : map(\.brief).joined(separator: "; ") }
}

extension Array where Element == Nak {
    var brief: String { isEmpty ? "no NAK" : map(\.brief).joined(separator: "; ") }
}

/// The STATUS's text, or "no STATUS".
func brief(_ s: Status?) -> String { s?.brief ?? "no STATUS" }
