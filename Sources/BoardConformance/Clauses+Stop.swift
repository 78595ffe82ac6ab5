// Conformance clauses for STOP (section 4), the failsafe (section 6), REPLACE and the LRA carrier of
// section 5 (drive levels are Clauses+Drive.swift): the motor is off on every path that is not playing a
// frame the host sent.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorWire

extension Conformance {
    static let stopClauses: [Clause] = [
        // The motor off is every board's promise; how the board says so (the state, the empty stream, the
        // final PLAYED first) is revision 1.1's.
        Clause("stop.now", "4", "STOP now while playing: output 0, configured, an empty stream, the final PLAYED first") { rig in
            let values = [UInt16](repeating: 200, count: min(Int(rig.info.bufferCapacity), 100))
            var answer: [BoardMessage] = []
            _ = try play(rig, values, reportEvery: 1000, frames: 0) { rig, tb in
                let waited = try rig.keepAlive(ms: 200)  // playing by now
                answer = try rig.exchange(.stop(atIndex: HostMessage.stopNow), settleMs: 30)
                return waited
            }
            let s = try requireValue(answer.statuses.first, "STATUS answering STOP")
            guard rig.holds(.r1_1) else {
                try require(s.output == 0, "STOP now: expected STATUS with output 0, got \(s.brief)")
                return .pass("off (the state and the final PLAYED are revision 1.1's, not held)")
            }
            try require(s.output == 0 && s.state == .configured && s.nextExpected == 0 && s.nextPlay == 0 && s.fill == 0,
                        "STOP now: expected STATUS configured, output 0, next_expected 0, next_play 0, fill 0, got \(s.brief)")
            let playedAt = answer.firstIndex { if case .played = $0 { return true } else { return false } }
            let statusAt = answer.firstIndex { if case .status = $0 { return true } else { return false } }
            try require(playedAt != nil && playedAt! < statusAt!, "STOP now: expected the final PLAYED, then STATUS, got \(answer.brief)")
            return .pass("off, configured, final PLAYED of \(answer.played.first!.count) frames")
        },
        Clause("stop.deferred", "4", "STOP at an index ends after the frame before it; PLAYED, then an unsolicited STATUS with the tick",
               since: .r1_1) { rig in
            let values = ramp(20)
            let p = try play(rig, values, reportEvery: 1000, frames: 20) { rig, _ in try rig.exchange(.stop(atIndex: 10)) }
            let end = p.timebase.due(10)
            let unsolicited = p.messages.statuses.filter { $0.ackSeq == 0 }
            let s = try requireValue(unsolicited.first, "unsolicited STATUS when the stop happened")
            try require(s.state == .configured && s.output == 0, "STOP at frame 10: expected an unsolicited STATUS configured, output 0, got \(s.brief)")
            try require(s.tick >= end && s.tick <= end + rig.ticks(ms: 2),
                        "stop at tick \(s.tick), frame 10 due at \(end): expected the stop at that due tick, up to 2 ms later")
            let last = try requireValue(p.played.last, "final PLAYED")
            try require(Int(last.firstIndex) + Int(last.count) == 10, "STOP at frame 10: expected the last PLAYED to end with frame 9, got \(last.brief)")
            let crc = CRC16.ofDuties(values[Int(last.firstIndex)..<10])
            try require(last.dutyCRC == crc, "STOP at frame 10: expected duty_crc 0x\(hex(crc)) in \(last.brief)")
            return .pass("stopped \(s.tick - end) ticks after frame 10's due tick")
        },
        Clause("stop.played-index", "4", "STOP at a frame already played stops at once", since: .r1_1) { rig in
            let values = [UInt16](repeating: 150, count: min(Int(rig.info.bufferCapacity), 100))
            var answer: [BoardMessage] = []
            _ = try play(rig, values, reportEvery: 1000, frames: 0) { rig, _ in
                let waited = try rig.keepAlive(ms: 250)  // frames 0... have played
                answer = try rig.exchange(.stop(atIndex: 2), settleMs: 30)
                return waited
            }
            let s = try requireValue(answer.statuses.last)
            try require(s.state == .configured && s.output == 0, "STOP at frame 2, already played: expected STATUS configured, output 0, got \(s.brief)")
            return .pass("stopped at once")
        },
        Clause("stop.counters", "4", "STOP keeps the counters; only CONFIGURE zeroes them", since: .r1_1) { rig in
            try rig.configure()
            try rig.frames(from: 0, [1, 2, 3])
            try rig.frames(from: 0, [1, 2, 3])  // 3 duplicates
            try rig.stopNow()
            let s = try rig.status()
            try require(s.duplicateFrames == 3, "3 duplicates, then STOP: expected duplicates 3, got \(s.duplicateFrames)")
            try require(s.nextExpected == 0, "STOP: expected next_expected 0, got \(s.nextExpected)")
            let c = try rig.configure()
            try require(c.duplicateFrames == 0, "CONFIGURE: expected duplicates 0, got \(c.duplicateFrames)")
            return .pass("kept by STOP, zeroed by CONFIGURE")
        },
        Clause("configure.refused-while-playing", "4", "a refused CONFIGURE leaves a playing stream alone", since: .r1_1) { rig in
            let values = [UInt16](repeating: 180, count: min(Int(rig.info.bufferCapacity), 100))
            var during: [BoardMessage] = []
            _ = try play(rig, values, reportEvery: 1000, frames: 0) { rig, _ in
                let waited = try rig.keepAlive(ms: 200)
                during = try rig.exchange(.configure(Configure(frameRateHz: rig.rate, dutyFormat: .u8, failsafeMs: 5)))
                during += [.status(try rig.status())]
                return waited
            }
            try require(during.naks.first?.code == .badConfig, "CONFIGURE with a 5 ms failsafe: expected NAK bad_config, got \(during.brief)")
            let s = try requireValue(during.statuses.last)
            try require(s.state == .playing && s.output != 0, "after a refused CONFIGURE: expected STATUS playing, output not 0, got \(s.brief)")
            return .pass("still playing")
        },
    ]

    static let failsafeClauses: [Clause] = [
        // The motor off after silence is every board's promise (section 6); the unsolicited report with its
        // tick and the refusals until CONFIGURE are revision 1.1's: a board of 1.0 is asked instead.
        Clause("failsafe.fires", "6", "silence for failsafe_ms: motor off, PLAYED then STATUS failsafe with the tick, refusals until CONFIGURE") { rig in
            try rig.configure(failsafeMs: 100, reportEvery: 1000)
            try rig.frames(from: 0, [UInt16](repeating: 200, count: min(Int(rig.info.bufferCapacity), 100)), settleMs: 0)
            let before = try rig.status().failsafeTrips
            let anchor = try rig.boardNow() + rig.ticks(ms: 30)
            let startReply = try rig.exchange(.start(Start(anchorIndex: 0, anchorTick: anchor, periodQ32: rig.periodQ32)))
            guard rig.holds(.r1_1) else {
                // Playing 30 ms after the START, then 270 ms of silence: 170 ms past a 100 ms failsafe.
                _ = try rig.collect(ms: 300)
                let s = try rig.status()
                try require(s.state == .failsafe && s.output == 0,
                            "100 ms failsafe, 300 ms of silence after a START: expected STATUS failsafe with output 0, got \(s.brief)")
                return .pass("off after silence, asked (the unsolicited report and the refusals are revision 1.1's, not held)")
            }
            let heard = try requireValue(startReply.statuses.last, "STATUS answering START").tick  // the last message it heard
            let got = try rig.collect(ms: 600) { if case .status(let s) = $0 { return s.state == .failsafe } else { return false } }
            let s = try requireValue(got.statuses.first { $0.state == .failsafe }, "an unsolicited STATUS failsafe within 600 ms")
            try require(s.ackSeq == 0 && s.output == 0, "failsafe: expected an unsolicited STATUS (ack_seq 0) with output 0, got \(s.brief)")
            let after = Double(s.tick - heard) / Double(rig.info.clockHz) * 1000
            try require(after >= 99 && after <= 130, String(format: "failsafe 100 ms: expected the motor off 100...130 ms after the last message, got %.1f ms", after))
            let playedAt = got.firstIndex { if case .played = $0 { return true } else { return false } }
            let statusAt = got.firstIndex { if case .status(let x) = $0 { return x.state == .failsafe } else { return false } }!
            try require(playedAt.map { $0 < statusAt } == true, "failsafe: expected the final PLAYED, then STATUS failsafe, got \(got.brief)")
            try require(s.failsafeTrips == before &+ 1, "failsafe: expected failsafe_trips \(before &+ 1), got \(s.failsafeTrips)")
            // Refusals until CONFIGURE; STOP and HEARTBEAT change nothing.
            let frames = try rig.frames(from: 0, [1], settleMs: 20)
            try require(frames.naks.map(\.code) == [.notConfigured] && frames.statuses.isEmpty,
                        "FRAMES in failsafe: expected only NAK not_configured, got \(frames.brief)")
            let start = try rig.exchange(.start(Start(anchorIndex: 0, anchorTick: 0, periodQ32: rig.periodQ32)), settleMs: 20)
            try require(start.naks.map(\.code) == [.notConfigured], "START in failsafe: expected NAK not_configured, got \(start.brief)")
            let stop = try rig.exchange(.stop(atIndex: HostMessage.stopNow))
            try require(stop.statuses.last?.state == .failsafe, "STOP in failsafe: expected STATUS failsafe, got \(stop.brief)")
            let leaving = try rig.configure()
            try require(leaving.state == .configured, "CONFIGURE in failsafe: expected STATUS configured, got \(leaving.brief)")
            return .pass(String(format: "off %.1f ms after the last message", after))
        },
        Clause("failsafe.fed-by-any-valid-frame", "6", "a message that is refused still feeds the failsafe") { rig in
            try rig.configure(failsafeMs: 100, reportEvery: 1000)
            let anchor = try rig.boardNow() + rig.ticks(ms: 2000)
            _ = try rig.exchange(.start(Start(anchorIndex: 0, anchorTick: anchor, periodQ32: rig.periodQ32)))
            var seen: [BoardMessage] = []
            for _ in 0..<10 {  // 400 ms of refused messages only: a START with a period under one tick
                seen += try rig.exchange(.start(Start(anchorIndex: 0, anchorTick: anchor, periodQ32: 1)), timeoutMs: 40)
                seen += try rig.collect(ms: 20)
            }
            try require(seen.naks.count == 10 && seen.naks.allSatisfy { $0.code == .badMessage },
                        "10 STARTs with a period under one tick: expected 10 NAK bad_message, got \(seen.naks.brief)")
            let state = try rig.status().state
            try require(state == .armed, "after 400 ms of refused messages, failsafe 100 ms: expected armed (they feed the failsafe), got \(state)")
            // (Judged by asking, not by the failsafe's own report, which failsafe.fires checks.)
            _ = try rig.collect(ms: 250)
            let after = try rig.status().state
            try require(after == .failsafe, "after 250 ms of silence, failsafe 100 ms: expected failsafe, got \(after)")
            return .pass("alive for 400 ms on refused messages, tripped after")
        },
    ]

    static let variantClauses: [Clause] = [
        Clause("replace.overwrites", "4", "REPLACE overwrites buffered frames not yet output (optional: capability bit 3)", since: .r1_1) { rig in
            guard rig.info.capabilities & Info.capReplace != 0 else { return .notApplicable("the board does not take REPLACE") }
            let n = min(Int(rig.info.bufferCapacity), 60)
            var values = ramp(n)
            let p = try play(rig, values, reportEvery: 10, frames: n) { rig, _ in
                var block = FramesBlock(firstIndex: 40, format: .u8)
                for _ in 40..<50 { block.values.append(222) }
                let got = try rig.exchange(.replace(block))
                try require(got.naks.isEmpty && got.statuses.last?.duplicateFrames == 0,
                            "REPLACE of frames 40...49: expected STATUS with duplicates 0 and no NAK, got \(got.brief)")
                return got
            }
            for i in 40..<50 { values[i] = 222 }
            _ = try checkPlayed(p, expected: values, through: n, limit: lateLimit(rig), grain: periodGrain(rig))
            return .pass("frames 40...49 replaced before they played")
        },
        Clause("drive.lra-carrier", "5", "an LRA board flips polarity every half carrier period from frame 0's tick", since: .r1_1) { rig in
            guard rig.info.motorKind == .lra, rig.info.capabilities & Info.capLRACarrier != 0 else {
                return .notApplicable("not an LRA board that makes its own carrier")
            }
            var samples: [Status] = []
            let p = try play(rig, [UInt16](repeating: 255, count: min(Int(rig.info.bufferCapacity), 100)), reportEvery: 1000, frames: 0) { rig, _ in
                _ = try rig.keepAlive(ms: 160)
                for _ in 0..<40 { samples.append(try rig.status()) }
                return []
            }
            let half = Double(rig.info.clockHz) * 10 / (2 * Double(rig.info.lraResonanceDeciHz))
            // Full drive, or the drive ceiling once the board's overdrive budget is spent.
            let magnitudes: Set<Int16> = [32767, try ceilingLevel(rig) ?? 32767]
            var checked = 0, late = 0
            for s in samples where s.tick > p.timebase.due(0) {
                let phase = Double(s.tick - p.timebase.due(0)) / half
                let within = phase - phase.rounded(.down)
                guard within > 0.05 && within < 0.95 else { continue }  // too near an edge to tell
                let positive = Int(phase.rounded(.down)) % 2 == 0
                // An edge the board reached late (its loop held up, as under an emulator on a busy host) is
                // output at once, as a late frame is: within the same 1 ms the old polarity may still show.
                let lateEdge = phase >= 1 && within * half <= Double(lateLimit(rig)) && (s.output > 0) != positive
                try require(((s.output > 0) == positive || lateEdge) && magnitudes.contains(Int16(s.output.magnitude)),
                            "at tick \(s.tick) (\(Int(within * half)) ticks into half period \(Int(phase))): expected output "
                            + "\(positive ? "+" : "-")\(magnitudes.sorted()), got \(s.output)"
                            + "; samples (ticks after frame 0: output) \(samples.map { "\(Int64(bitPattern: $0.tick &- p.timebase.due(0))): \($0.output)" })")
                checked += 1
                if lateEdge { late += 1 }
            }
            try require(checked >= 10, "expected at least 10 STATUS samples away from a carrier edge, got \(checked)")
            // A stall's sample or two, not a carrier that is always late (one 0.5 ms late shows 4 of about 37).
            try require(late <= 2, "\(late) of \(checked) samples still on the polarity before the edge (late by up to 1 ms): more than a stall's 2")
            return .pass("\(checked) samples on the right polarity" + (late > 0 ? " (\(late) within 1 ms after an edge the board reached late)" : ""))
        },
    ]
}
