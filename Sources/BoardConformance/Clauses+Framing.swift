// Conformance clauses of protocol.md section 2 (framing) and the message basics of section 4: what a
// board drops silently (and counts), what it answers, and what it refuses with which NAK.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

extension Conformance {
    /// The board's error counters: (bad CRC, anything else).
    static func errorCounts(_ rig: Rig) throws -> (crc: UInt16, other: UInt16) {
        let s = try rig.status()
        return (s.rxCRCErrors, s.rxOtherErrors)
    }

    /// Sends `bytes` and expects no reply at all within 150 ms, then the counters moved as given.
    static func droppedSilently(_ rig: Rig, _ bytes: [UInt8], crc: UInt16, other: UInt16, what: String) throws -> Verdict {
        let before = try errorCounts(rig)
        try rig.sendRaw(bytes)
        let replies = try rig.collect(ms: 150)
        try require(replies.isEmpty, "\(what): expected no reply, got \(replies.brief)")
        let after = try errorCounts(rig)
        let moved = (after.crc &- before.crc, after.other &- before.other)
        try require(moved == (crc, other), "\(what): expected rx_crc_errors +\(crc), rx_other_errors +\(other), got +\(moved.0), +\(moved.1)")
        return .pass("dropped without a reply; rx_crc_errors +\(moved.0), rx_other_errors +\(moved.1)")
    }

    static let framingClauses: [Clause] = [
        Clause("framing.delimiters", "2", "lone and doubled delimiters are ignored silently") { rig in
            let v = try droppedSilently(rig, [0, 0, 0], crc: 0, other: 0, what: "three delimiters")
            let info = try rig.exchange(.hello)
            try require(info.contains { if case .info = $0 { return true } else { return false } },
                        "HELLO after three delimiters: expected INFO, got \(info.brief)")
            return v
        },
        Clause("framing.bad-crc", "2", "a frame with a bad CRC is dropped and counted in rx_crc_errors") { rig in
            try droppedSilently(rig, rig.rawFrame(type: 0x07, payload: [], corruptCRC: true), crc: 1, other: 0, what: "bad CRC")
        },
        Clause("framing.bad-length", "2", "a frame whose len does not match its size is dropped and counted") { rig in
            try droppedSilently(rig, rig.rawFrame(type: 0x07, payload: [], lengthField: 5), crc: 0, other: 1, what: "len 5 with no payload")
        },
        Clause("framing.wrong-version", "2", "a frame of another protocol version is dropped and counted") { rig in
            try droppedSilently(rig, rig.rawFrame(version: 2, type: 0x07, payload: []), crc: 0, other: 1, what: "version 2")
        },
        Clause("framing.too-long", "2", "a block over 247 bytes is dropped, counted, and the next frame is read") { rig in
            let v = try droppedSilently(rig, [UInt8](repeating: 0x55, count: 300) + [0], crc: 0, other: 1, what: "300-byte block")
            _ = try rig.status()  // resynchronised: the next frame is answered
            return v
        },
        Clause("framing.bad-cobs", "2", "a block whose COBS code runs past its end is dropped and counted") { rig in
            try droppedSilently(rig, [0x09, 0x01, 0x07, 0x00], crc: 0, other: 1, what: "COBS code 9 in a 3-byte block")
        },
        Clause("framing.too-short", "2", "a frame under 6 bytes is dropped and counted") { rig in
            try droppedSilently(rig, [0x04, 0x01, 0x07, 0x05, 0x00], crc: 0, other: 1, what: "a 4-byte frame")
        },
        Clause("framing.noise", "2", "noise between frames costs at most the frame it hits") { rig in
            var noise: [UInt8] = []
            for _ in 0..<64 { noise.append(UInt8.random(in: 1...255)) }
            let before = try errorCounts(rig)
            try rig.sendRaw(noise)
            let replies = try rig.exchange(.hello)  // the noise and the HELLO's frame share one block: HELLO is lost ...
            let info = replies.contains { if case .info = $0 { return true } else { return false } }
            let again = try rig.exchange(.hello)  // ... or survives; the next one is answered either way
            try require(again.contains { if case .info = $0 { return true } else { return false } },
                        "the second HELLO after noise: expected INFO, got \(again.brief)")
            let after = try errorCounts(rig)
            try require((after.crc &- before.crc) &+ (after.other &- before.other) >= 1,
                        "64 noise bytes: expected rx_crc_errors or rx_other_errors to grow, they stayed at \(after.crc) and \(after.other)")
            return .pass("noise block counted; first HELLO \(info ? "survived" : "lost with it"), the next answered")
        },
        Clause("message.unknown-type", "4", "an unknown host type draws NAK unknown_type naming it, and is counted") { rig in
            let before = try errorCounts(rig)
            try rig.sendRaw(rig.rawFrame(type: 0x42, payload: [1, 2]))
            let naks = try rig.collect(ms: 300).naks
            try require(naks.count == 1 && naks[0].code == .unknownType && naks[0].detail == 0x42 && naks[0].refType == 0x42,
                        "type 0x42: expected one NAK unknown_type detail 0x42, got \(naks.brief)")
            guard rig.holds(.r1_1) else { return .pass("NAK unknown_type 0x42 (the count is revision 1.1's, not held)") }
            let after = try errorCounts(rig)
            try require(after.other &- before.other == 1, "type 0x42: expected rx_other_errors +1, got +\(after.other &- before.other)")
            return .pass("NAK unknown_type 0x42; rx_other_errors +1")
        },
        Clause("message.payload-size", "4", "a known type with the wrong payload size draws NAK bad_message and is counted in rx_other_errors",
               since: .r1_1) { rig in
            let before = try errorCounts(rig)
            try rig.sendRaw(rig.rawFrame(type: 0x07, payload: [0]))
            let got = try rig.collect(ms: 300)
            try require(got.naks.count == 1 && got.naks[0].code == .badMessage && got.naks[0].refType == 0x07,
                        "a 1-byte HEARTBEAT: expected one NAK bad_message ref_type 0x7, got \(got.brief)")
            try require(got.statuses.isEmpty, "a 1-byte HEARTBEAT: expected only the NAK, got \(got.brief)")
            let after = try errorCounts(rig)
            try require(after.other &- before.other == 1 && after.crc == before.crc,
                        "a 1-byte HEARTBEAT: expected rx_other_errors +1, rx_crc_errors +0, got +\(after.other &- before.other), +\(after.crc &- before.crc)")
            return .pass("NAK bad_message, no STATUS; rx_other_errors +1")
        },
        Clause("message.hello", "4", "HELLO is answered with INFO, the same as at the start") { rig in
            let got = try rig.exchange(.hello)
            guard case .info(let i)? = got.first(where: { if case .info = $0 { return true } else { return false } }) else {
                throw ClauseFailure(description: "HELLO: expected INFO, got \(got.brief)")
            }
            var first = rig.info
            first.revision = nil  // a plain HELLO gets INFO without the revision (section 10)
            try require(i == first, "HELLO: expected the INFO of the start (\(first.displayName), \(first.bufferCapacity) frames, "
                        + "capabilities 0x\(String(first.capabilities, radix: 16))), got \(i.displayName), \(i.bufferCapacity) frames, "
                        + "capabilities 0x\(String(i.capabilities, radix: 16))\(i == first ? "" : ", or another field differs")")
            return .pass("INFO")
        },
        Clause("message.info", "4", "INFO is sane: protocol 1, a power-of-two buffer, rates, clock, ASCII name") { rig in
            let i = rig.info
            try require(i.protocolVersion == 1, "protocol_version \(i.protocolVersion), expected 1")
            try require(i.bufferCapacity > 0 && i.bufferCapacity & (i.bufferCapacity - 1) == 0, "buffer_capacity \(i.bufferCapacity), expected a power of two")
            try require(i.minFrameRateHz >= 1 && i.minFrameRateHz <= i.maxFrameRateHz,
                        "frame rates \(i.minFrameRateHz)...\(i.maxFrameRateHz), expected 1 <= min <= max")
            try require(!rig.holds(.r1_1) || (32_768...1_000_000_000).contains(i.clockHz),
                        "clock_hz \(i.clockHz), expected 32768...1000000000 (revision 1.1)")
            try require((1...16).contains(i.pwmBits), "pwm_bits \(i.pwmBits), expected 1...16")
            try require(i.name.count > 0 && (0..<i.name.count).allSatisfy { (0x20...0x7E).contains(i.name[$0]) },
                        "name of \(i.name.count) bytes, expected 1...32 printable ASCII bytes")
            try require(i.motorKind == .erm || i.capabilities & Info.capLRACarrier == 0 || i.lraResonanceDeciHz > 0,
                        "an LRA board that makes its own carrier: lra_resonance_dhz 0, expected its default resonance")
            return .pass("\(i.bufferCapacity) frames, \(i.minFrameRateHz)...\(i.maxFrameRateHz) Hz, clock \(i.clockHz) Hz, \(i.pwmBits)-bit PWM")
        },
        Clause("message.heartbeat", "4", "HEARTBEAT is answered with a STATUS naming its seq") { rig in
            let seq = try rig.send(.heartbeat)
            let s = try rig.collect(ms: 500) { rig.answers(seq: seq, $0) }.statuses
            try require(s.count == 1 && s[0].ackSeq == seq, "HEARTBEAT seq \(seq): expected one STATUS ack_seq \(seq), got \(s.map(\.brief))")
            return .pass("STATUS ack_seq \(seq)")
        },
    ]
}
