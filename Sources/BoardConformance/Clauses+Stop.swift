// Conformance clauses for STOP (section 4), the failsafe (section 6) and the drive variants of section 5
// (reverse drive, u16 values, the LRA carrier): the motor is off on every path that is not playing a
// frame the host sent.

import Foundation
import MotorWire

extension Conformance {
    static let stopClauses: [Clause] = [
        Clause("stop.now", "4", "STOP now while playing: output 0, configured, an empty stream, the final PLAYED first") { rig in
            let values = [UInt16](repeating: 200, count: min(Int(rig.info.bufferCapacity), 100))
            var answer: [BoardMessage] = []
            _ = try play(rig, values, reportEvery: 1000, frames: 0) { rig, tb in
                let waited = try rig.keepAlive(ms: 200)  // playing by now
                answer = try rig.exchange(.stop(atIndex: HostMessage.stopNow), settleMs: 30)
                return waited
            }
            let s = try requireValue(answer.statuses.first, "STATUS answering STOP")
            try require(s.output == 0 && s.state == .configured && s.nextExpected == 0 && s.nextPlay == 0 && s.fill == 0, "after STOP now: \(s)")
            let playedAt = answer.firstIndex { if case .played = $0 { return true } else { return false } }
            let statusAt = answer.firstIndex { if case .status = $0 { return true } else { return false } }
            try require(playedAt != nil && playedAt! < statusAt!, "no final PLAYED before the STATUS: \(answer)")
            return .pass("off, configured, final PLAYED of \(answer.played.first!.count) frames")
        },
        Clause("stop.deferred", "4", "STOP at an index ends after the frame before it; PLAYED, then an unsolicited STATUS with the tick") { rig in
            let values = ramp(20)
            let p = try play(rig, values, reportEvery: 1000, frames: 20) { rig, _ in try rig.exchange(.stop(atIndex: 10)) }
            let end = p.timebase.due(10)
            let unsolicited = p.messages.statuses.filter { $0.ackSeq == 0 }
            let s = try requireValue(unsolicited.first, "unsolicited STATUS when the stop happened")
            try require(s.state == .configured && s.output == 0, "\(s)")
            try require(s.tick >= end && s.tick <= end + rig.ticks(ms: 2), "stop at tick \(s.tick), frame 10 due at \(end)")
            let last = try requireValue(p.played.last, "final PLAYED")
            try require(Int(last.firstIndex) + Int(last.count) == 10, "PLAYED covered up to \(Int(last.firstIndex) + Int(last.count)), expected 10")
            try require(last.dutyCRC == CRC16.ofDuties(values[Int(last.firstIndex)..<10]), "duties of frames ...9")
            return .pass("stopped \(s.tick - end) ticks after frame 10's due tick")
        },
        Clause("stop.played-index", "4", "STOP at a frame already played stops at once") { rig in
            let values = [UInt16](repeating: 150, count: min(Int(rig.info.bufferCapacity), 100))
            var answer: [BoardMessage] = []
            _ = try play(rig, values, reportEvery: 1000, frames: 0) { rig, _ in
                let waited = try rig.keepAlive(ms: 250)  // frames 0... have played
                answer = try rig.exchange(.stop(atIndex: 2), settleMs: 30)
                return waited
            }
            let s = try requireValue(answer.statuses.last)
            try require(s.state == .configured && s.output == 0, "after STOP at frame 2: \(s)")
            return .pass("stopped at once")
        },
        Clause("stop.counters", "4", "STOP keeps the counters; only CONFIGURE zeroes them") { rig in
            try rig.configure()
            try rig.frames(from: 0, [1, 2, 3])
            try rig.frames(from: 0, [1, 2, 3])  // 3 duplicates
            try rig.stopNow()
            let s = try rig.status()
            try require(s.duplicateFrames == 3, "duplicate_frames \(s.duplicateFrames) after STOP, expected 3")
            try require(s.nextExpected == 0, "next_expected \(s.nextExpected) after STOP")
            let c = try rig.configure()
            try require(c.duplicateFrames == 0, "CONFIGURE left duplicate_frames \(c.duplicateFrames)")
            return .pass("kept by STOP, zeroed by CONFIGURE")
        },
        Clause("configure.refused-while-playing", "4", "a refused CONFIGURE leaves a playing stream alone") { rig in
            let values = [UInt16](repeating: 180, count: min(Int(rig.info.bufferCapacity), 100))
            var during: [BoardMessage] = []
            _ = try play(rig, values, reportEvery: 1000, frames: 0) { rig, _ in
                let waited = try rig.keepAlive(ms: 200)
                during = try rig.exchange(.configure(Configure(frameRateHz: rig.rate, dutyFormat: .u8, failsafeMs: 5)))
                during += [.status(try rig.status())]
                return waited
            }
            try require(during.naks.first?.code == .badConfig, "expected NAK bad_config, got \(during)")
            let s = try requireValue(during.statuses.last)
            try require(s.state == .playing && s.output != 0, "the refused CONFIGURE stopped the stream: \(s)")
            return .pass("still playing")
        },
    ]

    static let failsafeClauses: [Clause] = [
        Clause("failsafe.fires", "6", "silence for failsafe_ms: motor off, PLAYED then STATUS failsafe with the tick, refusals until CONFIGURE") { rig in
            try rig.configure(failsafeMs: 100, reportEvery: 1000)
            try rig.frames(from: 0, [UInt16](repeating: 200, count: min(Int(rig.info.bufferCapacity), 100)), settleMs: 0)
            let before = try rig.status().failsafeTrips
            let anchor = try rig.boardNow() + rig.ticks(ms: 30)
            let startReply = try rig.exchange(.start(Start(anchorIndex: 0, anchorTick: anchor, periodQ32: rig.periodQ32)))
            let heard = try requireValue(startReply.statuses.last, "STATUS answering START").tick  // the last message it heard
            let got = try rig.collect(ms: 600) { if case .status(let s) = $0 { return s.state == .failsafe } else { return false } }
            let s = try requireValue(got.statuses.first { $0.state == .failsafe }, "an unsolicited STATUS failsafe within 600 ms")
            try require(s.ackSeq == 0 && s.output == 0, "\(s)")
            let after = Double(s.tick - heard) / Double(rig.info.clockHz) * 1000
            try require(after >= 99 && after <= 130, "motor off \(after) ms after the last message, failsafe is 100 ms")
            let playedAt = got.firstIndex { if case .played = $0 { return true } else { return false } }
            let statusAt = got.firstIndex { if case .status(let x) = $0 { return x.state == .failsafe } else { return false } }!
            try require(playedAt.map { $0 < statusAt } == true, "no final PLAYED before the failsafe STATUS")
            try require(s.failsafeTrips == before &+ 1, "failsafe_trips \(s.failsafeTrips), was \(before)")
            // Refusals until CONFIGURE; STOP and HEARTBEAT change nothing.
            let frames = try rig.frames(from: 0, [1], settleMs: 20)
            try require(frames.naks.map(\.code) == [.notConfigured] && frames.statuses.isEmpty, "FRAMES in failsafe: \(frames)")
            let start = try rig.exchange(.start(Start(anchorIndex: 0, anchorTick: 0, periodQ32: rig.periodQ32)), settleMs: 20)
            try require(start.naks.map(\.code) == [.notConfigured], "START in failsafe: \(start)")
            let stop = try rig.exchange(.stop(atIndex: HostMessage.stopNow))
            try require(stop.statuses.last?.state == .failsafe, "STOP in failsafe: \(stop)")
            try require(try rig.configure().state == .configured, "CONFIGURE did not leave failsafe")
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
            try require(seen.naks.count == 10 && seen.naks.allSatisfy { $0.code == .badMessage }, "the bad STARTs drew \(seen.naks)")
            let state = try rig.status().state
            try require(state == .armed, "\(state) after 400 ms of refused messages: they did not feed the failsafe")
            // (Judged by asking, not by the failsafe's own report, which failsafe.fires checks.)
            _ = try rig.collect(ms: 250)
            let after = try rig.status().state
            try require(after == .failsafe, "\(after) after 250 ms of silence: the failsafe did not fire")
            return .pass("alive for 400 ms on refused messages, tripped after")
        },
    ]

    static let variantClauses: [Clause] = [
        Clause("replace.overwrites", "4", "REPLACE overwrites buffered frames not yet output (optional: capability bit 3)") { rig in
            guard rig.info.capabilities & Info.capReplace != 0 else { return .notApplicable("the board does not take REPLACE") }
            let n = min(Int(rig.info.bufferCapacity), 60)
            var values = ramp(n)
            let p = try play(rig, values, reportEvery: 10, frames: n) { rig, _ in
                var block = FramesBlock(firstIndex: 40, format: .u8)
                for _ in 40..<50 { block.values.append(222) }
                let got = try rig.exchange(.replace(block))
                try require(got.naks.isEmpty && got.statuses.last?.duplicateFrames == 0, "REPLACE drew \(got)")
                return got
            }
            for i in 40..<50 { values[i] = 222 }
            _ = try checkPlayed(p, expected: values, through: n, limit: lateLimit(rig))
            return .pass("frames 40...49 replaced before they played")
        },
        Clause("drive.u16", "5", "u16 values: raw >> 1 is the level (STATUS output)") { rig in
            var output: Int16 = 0
            _ = try play(rig, [UInt16](repeating: 40_000, count: min(Int(rig.info.bufferCapacity), 100)), format: .u16,
                         reportEvery: 1000, frames: 0) { rig, _ in
                let waited = try rig.keepAlive(ms: 200)
                output = try rig.status().output
                return waited
            }
            // A board with a drive ceiling holds it once its overdrive budget (< 200 ms) is spent.
            let expected: Int16 = min(20_000, try ceilingLevel(rig) ?? .max)
            guard rig.info.motorKind == .erm || rig.info.capabilities & Info.capLRACarrier == 0 else {
                try require(abs(Int(output)) == Int(expected), "output \(output), expected ±\(expected)")
                return .pass("±\(expected)")
            }
            try require(output == expected, "output \(output), expected \(expected)")
            return .pass("level \(expected)")
        },
        Clause("drive.reverse", "5", "negative i16 drives in reverse only with the capability and the flag") { rig in
            guard rig.info.capabilities & Info.capReverse != 0, rig.info.motorKind == .erm else {
                return .notApplicable("the board cannot reverse an ERM")
            }
            let minus = UInt16(bitPattern: -16000)
            var outputs: [Int16] = []
            for flags in [Configure.flagAllowReverse, 0] {
                _ = try play(rig, [UInt16](repeating: minus, count: min(Int(rig.info.bufferCapacity), 100)), format: .i16,
                             reportEvery: 1000, flags: flags, frames: 0) { rig, _ in
                    let waited = try rig.keepAlive(ms: 200)
                    outputs.append(try rig.status().output)
                    return waited
                }
                try rig.stopNow()
            }
            try require(outputs == [-16000, 0], "outputs with and without the flag: \(outputs), expected [-16000, 0]")
            return .pass("-16000 with the flag, 0 without")
        },
        Clause("drive.lra-carrier", "5", "an LRA board flips polarity every half carrier period from frame 0's tick") { rig in
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
            var checked = 0
            for s in samples where s.tick > p.timebase.due(0) {
                let phase = Double(s.tick - p.timebase.due(0)) / half
                let within = phase - phase.rounded(.down)
                guard within > 0.05 && within < 0.95 else { continue }  // too near an edge to tell
                let positive = Int(phase.rounded(.down)) % 2 == 0
                try require((s.output > 0) == positive && magnitudes.contains(Int16(s.output.magnitude)),
                            "at tick \(s.tick) (half period \(Int(phase))) output \(s.output)")
                checked += 1
            }
            try require(checked >= 10, "only \(checked) samples away from an edge")
            return .pass("\(checked) samples on the right polarity")
        },
    ]
}
