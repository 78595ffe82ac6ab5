// Conformance clauses for the board clock (section 3), CONFIGURE and its refusals, and FRAMES into the
// buffer (section 4): acknowledgements, duplicates, the gap NAK with selective repeat, the window edge.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorWire

extension Conformance {
    static let messageClauses: [Clause] = [
        Clause("clock.monotonic", "3", "CLOCK echoes the token and the board clock only moves forward") { rig in
            var last: UInt64 = 0
            for k in 0..<20 {
                let token = UInt32(0xC10C_0000 + k)
                try rig.send(.clockRequest(token: token))
                let got = try rig.collect(ms: 500) { if case .clock(let t, _) = $0 { return t == token } else { return false } }
                guard let tick = got.compactMap({ m -> UInt64? in if case .clock(let t, let tick) = m, t == token { return tick } else { return nil } }).first else {
                    throw ClauseFailure(description: "CLOCK_REQ token \(token): expected CLOCK with that token within 500 ms, got \(got.brief)")
                }
                try require(tick > last, "CLOCK tick \(tick) after \(last): expected a later tick")
                last = tick
            }
            return .pass("20 exchanges, strictly increasing")
        },
        Clause("clock.rate", "3", "the board clock runs at clock_hz within 5 %", since: .r1_1) { rig in
            // The fastest of several exchanges at each end bounds the board time best.
            func sample() throws -> (ns: Double, tick: Double, rtt: Double) {
                var best: (Double, Double, Double) = (0, 0, .infinity)
                for _ in 0..<8 {
                    let t0 = rig.nowNs
                    let tick = try rig.boardNow()
                    let t1 = rig.nowNs
                    if Double(t1 - t0) < best.2 { best = ((Double(t0) + Double(t1)) / 2, Double(tick), Double(t1 - t0)) }
                }
                return best
            }
            let a = try sample()
            Thread.sleep(forTimeInterval: 2)
            let b = try sample()
            let rate = (b.tick - a.tick) / (b.ns - a.ns) * 1e9
            let uncertainty = (a.rtt + b.rtt) / (b.ns - a.ns)
            let error = rate / Double(rig.info.clockHz) - 1
            try require(abs(error) <= 0.05 + uncertainty,
                        "measured \(Int(rate)) Hz, expected clock_hz \(rig.info.clockHz) within 5 % (±\(Int(uncertainty * 1e6)) ppm): \(Int(error * 1e6)) ppm off")
            return .pass("\(Int(error * 1e6)) ppm from clock_hz (±\(Int(uncertainty * 1e6)) ppm)")
        },
        Clause("configure.accept", "4", "CONFIGURE is answered with STATUS configured, an empty stream, counters zero") { rig in
            let s = try rig.configure()
            try require(s.state == .configured, "CONFIGURE: expected STATUS configured, got \(s.brief)")
            try require(s.nextExpected == 0 && s.fill == 0 && (s.nextPlay == 0 || !rig.holds(.r1_1)),
                        "CONFIGURE: expected an empty stream (next_expected 0, next_play 0, fill 0), got \(s.brief)")
            try require(s.underruns == 0 && s.lateFrames == 0 && s.duplicateFrames == 0,
                        "CONFIGURE: expected underruns, late and duplicates 0, got \(s.brief)")
            try require(s.output == 0, "CONFIGURE: expected output 0 while configured, got \(s.output)")
            return .pass("configured")
        },
        Clause("configure.rate", "4", "a frame rate out of range is NAK bad_config detail 1") { rig in
            guard rig.info.maxFrameRateHz < UInt16.max else { return .notApplicable("the board takes every 16-bit rate") }
            let got = try rig.exchange(.configure(Configure(frameRateHz: rig.info.maxFrameRateHz + 1, dutyFormat: .u8, failsafeMs: 200)))
            try require(got.naks.count == 1 && got.naks[0].code == .badConfig && got.naks[0].detail == 1,
                        "CONFIGURE at \(rig.info.maxFrameRateHz + 1) Hz: expected one NAK bad_config detail 1, got \(got.brief)")
            try require(got.statuses.isEmpty || !rig.holds(.r1_1), "CONFIGURE at \(rig.info.maxFrameRateHz + 1) Hz: expected only the NAK, got \(got.brief)")
            return .pass("NAK bad_config 1")
        },
        Clause("configure.failsafe", "4", "a failsafe outside 20...10000 ms is NAK bad_config detail 3") { rig in
            for ms: UInt16 in [19, 10_001] {
                let got = try rig.exchange(.configure(Configure(frameRateHz: rig.rate, dutyFormat: .u8, failsafeMs: ms)))
                try require(got.naks.count == 1 && got.naks[0].code == .badConfig && got.naks[0].detail == 3,
                            "failsafe \(ms) ms: expected one NAK bad_config detail 3, got \(got.brief)")
            }
            return .pass("NAK bad_config 3 for 19 and 10001 ms")
        },
        Clause("configure.order", "4", "CONFIGURE checks the rate before the failsafe", since: .r1_1) { rig in
            guard rig.info.maxFrameRateHz < UInt16.max else { return .notApplicable("no out-of-range rate") }
            let got = try rig.exchange(.configure(Configure(frameRateHz: rig.info.maxFrameRateHz + 1, dutyFormat: .u8, failsafeMs: 5)))
            try require(got.naks.first?.detail == 1, "rate and failsafe both wrong: expected NAK bad_config detail 1 (rate first), got \(got.brief)")
            return .pass("detail 1")
        },
        Clause("configure.format", "4", "an unknown duty_format is NAK bad_message naming the format", since: .r1_1) { rig in
            var payload: [UInt8] = [UInt8(rig.rate & 0xFF), UInt8(rig.rate >> 8), 9, 200, 0, 0, 0, 0, 0, 0]
            payload[2] = 9
            try rig.sendRaw(rig.rawFrame(type: 0x02, payload: payload))
            let got = try rig.collect(ms: 300)
            try require(got.naks.count == 1 && got.naks[0].code == .badMessage && got.naks[0].detail == 9,
                        "CONFIGURE with duty_format 9: expected one NAK bad_message detail 9, got \(got.brief)")
            return .pass("NAK bad_message 9")
        },
        Clause("frames.ack", "4", "FRAMES is answered with STATUS: next_expected and fill count what arrived") { rig in
            try rig.configure()
            let s = try rig.frames(from: 0, [UInt16](repeating: 100, count: 10)).statuses
            try require(s.last?.nextExpected == 10 && s.last?.fill == 10, "after frames 0...9: expected next_expected 10, fill 10, got \(brief(s.last))")
            return .pass("next_expected 10, fill 10")
        },
        Clause("frames.duplicate", "4", "a frame received twice is counted in duplicate_frames and dropped") { rig in
            try rig.configure()
            try rig.frames(from: 0, [UInt16](repeating: 7, count: 10))
            let s = try rig.frames(from: 0, [UInt16](repeating: 7, count: 10)).statuses
            try require(s.last?.duplicateFrames == 10 && s.last?.nextExpected == 10,
                        "frames 0...9 sent twice: expected duplicates 10, next_expected 10, got \(brief(s.last))")
            return .pass("duplicate_frames 10")
        },
        Clause("frames.gap", "4", "frames past a hole are kept and the hole is named by NAK gap, before the STATUS", since: .r1_1) { rig in
            try rig.configure()
            try rig.frames(from: 0, [UInt16](repeating: 1, count: 10))
            let got = try rig.frames(from: 20, [UInt16](repeating: 2, count: 5))
            try require(got.naks.count == 1 && got.naks[0].code == .gap && got.naks[0].detail == 10,
                        "frames 20...24 after 0...9: expected one NAK gap detail 10, got \(got.naks.brief)")
            let nakAt = got.firstIndex { if case .nak = $0 { return true } else { return false } }!
            let statusAt = got.firstIndex { if case .status = $0 { return true } else { return false } }
            try require(statusAt.map { $0 > nakAt } == true, "frames past a hole: expected NAK gap then STATUS, got \(got.brief)")
            try require(got.statuses.last?.nextExpected == 10, "frames past a hole: expected next_expected 10, got \(brief(got.statuses.last))")
            let filled = try rig.frames(from: 10, [UInt16](repeating: 3, count: 10))
            try require(filled.naks.isEmpty, "frames 10...19 filling the hole: expected no NAK, got \(filled.naks.brief)")
            try require(filled.statuses.last?.nextExpected == 25,
                        "frames 10...19 filling the hole: expected next_expected 25 (20...24 kept), got \(brief(filled.statuses.last))")
            return .pass("NAK gap 10, then next_expected 25")
        },
        Clause("frames.window", "4", "exactly buffer_capacity frames fit; the next is NAK buffer_full", since: .r1_1) { rig in
            let empty = try rig.configure()
            let cap = Int(rig.info.bufferCapacity)
            try require(Int(empty.free) == cap && empty.fill == 0,
                        "an empty buffer: expected free \(cap) (INFO's buffer_capacity), fill 0, got free \(empty.free), fill \(empty.fill)")
            let fill = try rig.frames(from: 0, [UInt16](repeating: 5, count: cap))
            try require(fill.naks.isEmpty, "frames 0...\(cap - 1): expected no NAK, got \(fill.naks.count), the first \(fill.naks.first.map(\.brief) ?? "")")
            try require(fill.statuses.last?.free == 0 && fill.statuses.last?.nextExpected == UInt32(cap),
                        "frames 0...\(cap - 1): expected free 0, next_expected \(cap), got \(brief(fill.statuses.last))")
            let over = try rig.frames(from: UInt32(cap), [5, 5])
            try require(over.naks.count == 1 && over.naks[0].code == .bufferFull && over.naks[0].detail == UInt32(cap),
                        "frames \(cap)...\(cap + 1) into a full buffer: expected one NAK buffer_full detail \(cap), got \(over.naks.brief)")
            try require(over.statuses.count == 1, "frames into a full buffer: expected NAK buffer_full then one STATUS, got \(over.brief)")
            return .pass("\(cap) accepted, frame \(cap) refused")
        },
        Clause("frames.format", "4", "FRAMES in another duty_format than configured is NAK bad_message only", since: .r1_1) { rig in
            try rig.configure(format: .u8)
            var block = FramesBlock(firstIndex: 0, format: .u16)
            block.values.append(1000)
            let got = try rig.exchange(.frames(block), settleMs: 50)
            try require(got.naks.count == 1 && got.naks[0].code == .badMessage && got.naks[0].detail == 2,
                        "u16 FRAMES to a u8 stream: expected one NAK bad_message detail 2, got \(got.naks.brief)")
            try require(got.statuses.isEmpty, "u16 FRAMES to a u8 stream: expected only the NAK, got \(got.brief)")
            return .pass("NAK bad_message 2")
        },
    ]
}
