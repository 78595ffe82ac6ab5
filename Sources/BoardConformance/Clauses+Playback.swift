// Conformance clauses of section 6 (playback on the board clock) and START: frames output at their due
// ticks with the right duties (the board's own PLAYED reports are the evidence), underruns, late frames,
// the report cadence, re-timing and a START into the past.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

/// One playback a clause set up: its timebase and everything the board sent while it ran.
struct Playback {
    var timebase: Timebase
    var messages: [BoardMessage]
    var played: [Played] { messages.played }
}

extension Conformance {
    /// CONFIGURE, pre-fill `values` (all of them, within the buffer), START `leadMs` from now, and keep the
    /// board fed until `frames` frames (default: the values and 3 more) would have played.
    static func play(_ rig: Rig, _ values: [UInt16], format: DutyFormat = .u8, reportEvery: UInt16 = 10,
                     flags: UInt8 = 0, leadMs: Double = 150, frames: Int? = nil,
                     during: (Rig, Timebase) throws -> [BoardMessage] = { _, _ in [] }) throws -> Playback {
        try rig.configure(format: format, reportEvery: reportEvery, flags: flags)
        try rig.frames(from: 0, values, format: format, settleMs: 0)
        let anchor = try rig.boardNow() + rig.ticks(ms: leadMs)
        let tb = Timebase(anchorIndex: 0, anchorTick: anchor, periodQ32: rig.periodQ32)
        var messages = try rig.exchange(.start(Start(anchorIndex: 0, anchorTick: anchor, periodQ32: rig.periodQ32)))
        messages += try during(rig, tb)
        let count = frames ?? values.count + 3
        let playMs: Double = Double(count) * 1000 / Double(rig.rate)
        messages += try rig.keepAlive(ms: Int(leadMs + playMs + 100))
        return Playback(timebase: tb, messages: messages)
    }

    /// Frames `0..<n` of a test ramp (never 0, so an underrun shows).
    static func ramp(_ n: Int, format: DutyFormat = .u8) -> [UInt16] {
        (0..<n).map { (i: Int) -> UInt16 in
            let v: Int = format == .u8 ? 1 + (i * 7) % 254 : 1000 + (i * 97) % 30_000
            return UInt16(v)
        }
    }

    /// How late a frame may be output (and then it must say so in PLAYED): 1 ms. A board that hands frames
    /// to its output ahead of time is never late; one that outputs when it services is late by its service
    /// grain, which must stay far below what the skin resolves.
    static func lateLimit(_ rig: Rig) -> UInt64 { rig.ticks(ms: 1) }

    /// Whether a PLAYED block's first tick keeps the rules: at its due tick, or at the start of the output's
    /// next PWM period (less than 100 µs on, not late: protocol.md, PLAYED), or later by at most the limit
    /// and then counted late.
    static func onTime(_ r: Played, due: UInt64, limit: UInt64, grain: UInt64) -> Bool {
        r.firstTick == due || (r.firstTick > due && r.firstTick - due < grain)
            || (r.firstTick > due && r.firstTick - due <= limit && r.lateCount > 0)
    }

    /// The longest wait for the output's next PWM period that is not lateness: 100 µs (protocol.md, PLAYED).
    static func periodGrain(_ rig: Rig) -> UInt64 { rig.ticks(ms: 1) / 10 }

    /// Checks PLAYED reports against `expected` duties and the timebase: contiguous from 0, each block's
    /// first tick the due tick (or the next PWM period's start, or later within 1 ms and then counted late), duties by CRC. Returns
    /// (frames, late, largest lateness in ticks).
    static func checkPlayed(_ p: Playback, expected: [UInt16], through n: Int, limit: UInt64, grain: UInt64) throws -> (frames: Int, late: Int, maxLate: UInt32) {
        var next = 0, late = 0
        var maxLate: UInt32 = 0
        for r in p.played where Int(r.firstIndex) < n {
            try require(Int(r.firstIndex) == next, "expected a PLAYED from frame \(next), got \(r.brief)")
            let due = p.timebase.due(r.firstIndex)
            try require(onTime(r, due: due, limit: limit, grain: grain),
                        "expected frame \(r.firstIndex) output on its due tick, or up to \(limit) ticks later and counted late; "
                        + "got frame \(r.firstIndex) at \(r.firstTick), due \(due), late_count \(r.lateCount)")
            try require(UInt64(r.maxLateTicks) <= limit,
                        "frames \(r.firstIndex)...: expected at most \(limit) ticks late, got max_late_ticks \(r.maxLateTicks)")
            maxLate = max(maxLate, r.maxLateTicks)
            let slice = (Int(r.firstIndex)..<Int(r.firstIndex) + Int(r.count)).map { $0 < expected.count ? expected[$0] : 0 }
            try require(r.dutyCRC == CRC16.ofDuties(slice),
                        "\(r.brief): expected duty_crc 0x\(hex(CRC16.ofDuties(slice))), the CRC of the values sent (0 for underruns)")
            late += Int(r.lateCount)
            next += Int(r.count)
        }
        try require(next >= n, "expected PLAYED reports covering frames 0...\(n - 1), got \(next) frames covered")
        return (next, late, maxLate)
    }

    static let playbackClauses: [Clause] = [
        Clause("playback.schedule", "6", "each frame is output at its due tick with the duty sent (PLAYED)") { rig in
            let n = min(Int(rig.info.bufferCapacity), 100)
            let values = ramp(n)
            let p = try play(rig, values, frames: n)
            let (frames, late, maxLate) = try checkPlayed(p, expected: values, through: n, limit: lateLimit(rig), grain: periodGrain(rig))
            let us = Double(maxLate) * 1e6 / Double(rig.info.clockHz)
            return .pass(late == 0 ? "\(frames) frames, all at their due ticks" : "\(frames) frames, \(late) late by at most \(Int(us)) µs (and said so)")
        },
        Clause("playback.cadence", "4", "PLAYED comes every report_every frames") { rig in
            let values = ramp(min(Int(rig.info.bufferCapacity), 49))
            let p = try play(rig, values, reportEvery: 7, frames: 49)
            let counts = p.played.prefix(7).map { Int($0.count) }
            try require(counts.count == 7 && counts.allSatisfy { $0 == 7 }, "report_every 7: expected 7 PLAYED of 7 frames, got counts \(counts)")
            return .pass("7 reports of 7")
        },
        Clause("playback.underrun", "6", "a frame missing at its tick plays 0 and is counted in underruns") { rig in
            let values = ramp(10)
            let p = try play(rig, values, frames: 20)
            // Frames 10...19 reported as 0 (an underrun is declared when the board next looks, so its lateness is not judged).
            _ = try checkPlayed(p, expected: values, through: 20, limit: rig.ticks(ms: 100), grain: periodGrain(rig))
            let s = try rig.status()
            try require(s.underruns >= 10, "frames 10...19 never sent: expected underruns >= 10, got \(s.underruns)")
            return .pass("underruns \(s.underruns), zeros in the duty CRC")
        },
        Clause("playback.late-frames", "4", "frames arriving after their tick are dropped and counted in late_frames") { rig in
            let p = try play(rig, [], frames: 15)
            _ = p
            let got = try rig.frames(from: 0, ramp(5))
            try require(got.statuses.last?.lateFrames == 5, "frames 0...4 sent after their ticks: expected late_frames 5, got \(brief(got.statuses.last))")
            return .pass("late_frames 5")
        },
        Clause("start.period", "4", "a START whose period is under one tick is NAK bad_message") { rig in
            try rig.configure()
            let got = try rig.exchange(.start(Start(anchorIndex: 0, anchorTick: 1, periodQ32: 0x8000_0000)))
            try require(got.naks.count == 1 && got.naks[0].code == .badMessage, "START with a period of half a tick: expected one NAK bad_message, got \(got.brief)")
            return .pass("NAK bad_message")
        },
        Clause("start.retime", "4", "a START while playing re-times the stream and keeps the buffer") { rig in
            let n = min(Int(rig.info.bufferCapacity), 100)
            let values = ramp(n)
            var moved: Timebase?
            let p = try play(rig, values, frames: n) { rig, tb in
                // Frame 50 and on move 20 ms later (sent while frames 0... play).
                let got = try rig.keepAlive(ms: 100)
                let later = Timebase(anchorIndex: 50, anchorTick: tb.due(50) + rig.ticks(ms: 20), periodQ32: tb.periodQ32)
                moved = later
                return try got + rig.exchange(.start(Start(anchorIndex: later.anchorIndex, anchorTick: later.anchorTick, periodQ32: later.periodQ32)))
            }
            let later = try requireValue(moved)
            for r in p.played where Int(r.firstIndex) + Int(r.count) <= n {
                let slice = values[Int(r.firstIndex)..<(Int(r.firstIndex) + Int(r.count))]
                try require(r.dutyCRC == CRC16.ofDuties(slice),
                            "re-timed stream, \(r.brief): expected duty_crc 0x\(hex(CRC16.ofDuties(slice))), the CRC of the values sent "
                            + "(a START that re-times keeps the buffer)")
            }
            let after = p.played.filter { $0.firstIndex >= 50 && Int($0.firstIndex) + Int($0.count) <= n }
            let off = after.filter { !onTime($0, due: later.due($0.firstIndex), limit: lateLimit(rig), grain: periodGrain(rig)) }
            try require(!after.isEmpty, "re-timed stream: expected PLAYED reports for frames 50...\(n - 1), got \(p.played.map(\.brief))")
            try require(off.isEmpty,
                        "re-timed stream: expected frames 50... at the new ticks, got \(off.prefix(2).map { "frame \($0.firstIndex) at \($0.firstTick), due \(later.due($0.firstIndex))" })")
            return .pass("frames 50... 20 ms later, none lost")
        },
        Clause("start.past", "4", "a START anchored in the past plays the overdue frames at once, late", since: .r1_1) { rig in
            try rig.configure()
            let values = ramp(min(Int(rig.info.bufferCapacity), 60))
            try rig.frames(from: 0, values, settleMs: 0)
            let anchor = try rig.boardNow() - rig.ticks(ms: 40)
            let tb = Timebase(anchorIndex: 0, anchorTick: anchor, periodQ32: rig.periodQ32)
            var got = try rig.exchange(.start(Start(anchorIndex: 0, anchorTick: anchor, periodQ32: tb.periodQ32)))
            got += try rig.keepAlive(ms: Int(Double(values.count) * 1000 / Double(rig.rate)) + 150)
            let first = try requireValue(got.played.first)
            try require(first.firstIndex == 0 && first.lateCount > 0 && first.firstTick > anchor,
                        "START 40 ms in the past: expected the first PLAYED from frame 0, late, after tick \(anchor), got \(first.brief)")
            let onTime = got.played.filter { $0.firstIndex >= 20 && Int($0.firstIndex) + Int($0.count) <= values.count }
            let off = onTime.filter { !Conformance.onTime($0, due: tb.due($0.firstIndex), limit: lateLimit(rig), grain: periodGrain(rig)) }
            try require(!onTime.isEmpty, "START in the past: expected PLAYED reports for frames 20..., got \(got.played.map(\.brief))")
            try require(off.isEmpty, "START in the past: expected frames 20... at their due ticks, got \(off.prefix(2).map { "frame \($0.firstIndex) at \($0.firstTick), due \(tb.due($0.firstIndex))" })")
            return .pass("\(first.lateCount) frames late at once, the rest on time")
        },
    ]

    /// "BEEF".
    static func hex(_ v: UInt16) -> String { String(v, radix: 16, uppercase: true) }

    static func requireValue<T>(_ value: T?, _ what: String = "a value") throws -> T {
        guard let value else { throw ClauseFailure(description: "expected \(what), got none") }
        return value
    }
}
