// The streaming decoder under 10^6 random and corrupted inputs: no crash, and it always resyncs.
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct DecoderFuzzTests {
    /// A valid frame the decoder must find after any garbage.
    static let marker = wireBytes(.clockRequest(token: 0xC0FFEE), seq: 77)

    /// 10^6 inputs: pure noise, noise with delimiters, valid frames with bit flips, dropped and
    /// inserted bytes, truncations, over-long blocks. After each, a delimiter and the marker frame
    /// must decode.
    @Test func survivesAMillionCorruptedInputsAndResyncs() throws {
        var rng = SplitMix(seed: 0x5EED)
        var decoder = FrameDecoder()
        let valid = Golden.hostMessages().map { wireBytes($0.message, seq: $0.seq) }
            + Golden.boardMessages().map { wireBytes($0.message, seq: $0.seq) }
        var resyncFailures = 0
        var packetsFromGarbage = 0
        let inputs = 1_000_000
        for i in 0..<inputs {
            var input: [UInt8]
            switch i % 6 {
            case 0:  // pure noise, no delimiters
                input = (0..<(1 + Int(rng.next() % 40))).map { _ in UInt8(truncatingIfNeeded: rng.next() | 1) }
            case 1:  // noise with delimiters
                input = (0..<(1 + Int(rng.next() % 40))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            case 2:  // a valid frame with 1-3 bit flips (two flips of one bit cancel: then flip another)
                let original = valid[Int(rng.next() % UInt64(valid.count))]
                input = original
                for _ in 0..<(1 + Int(rng.next() % 3)) {
                    let at = Int(rng.next() % UInt64(input.count))
                    input[at] ^= 1 << UInt8(rng.next() % 8)
                }
                if input == original { input[1] ^= 0x10 }
            case 3:  // a valid frame with a byte dropped or duplicated
                input = valid[Int(rng.next() % UInt64(valid.count))]
                let at = Int(rng.next() % UInt64(input.count - 1))
                if rng.next() % 2 == 0 { input.remove(at: at) } else { input.insert(input[at], at: at) }
            case 4:  // truncated frame (no delimiter)
                let v = valid[Int(rng.next() % UInt64(valid.count))]
                input = Array(v.prefix(Int(rng.next() % UInt64(v.count))))
            default:  // over-long block
                input = [UInt8](repeating: 0x55, count: 248 + Int(rng.next() % 400))
            }
            for b in input {
                if case .packet = decoder.push(b) { packetsFromGarbage += 1 }
            }
            // Resync: a delimiter, then the marker must come out intact.
            _ = decoder.push(0)
            var found = false
            for b in Self.marker {
                if case .packet(let p)? = decoder.push(b), p.seq == 77,
                   (try? HostMessage(p)) == .clockRequest(token: 0xC0FFEE) {
                    found = true
                }
            }
            if !found { resyncFailures += 1 }
        }
        #expect(resyncFailures == 0)
        // A 16-bit CRC lets about 1 in 65536 corrupted frames through; with ~330k corrupted
        // frames a handful may pass the CRC, but never many.
        #expect(packetsFromGarbage < 40, "\(packetsFromGarbage) corrupted frames passed the CRC")
        #expect(decoder.errors.total > 400_000)
    }

    @Test func overlongBlockIsReportedOnceAndDiscarded() {
        var d = FrameDecoder()
        let events = decodeAll([UInt8](repeating: 0x42, count: 1000) + [0] + Self.marker, decoder: &d)
        #expect(events.count == 2)
        if case .error(.frameTooLong) = events[0] {} else { Issue.record("expected frameTooLong, got \(events[0])") }
        #expect(packets(events).count == 1)
        #expect(d.errors.tooLong == 1)
    }

    @Test func backToBackDelimitersAreSilent() {
        var d = FrameDecoder()
        let events = decodeAll([0, 0, 0] + Self.marker + [0, 0] + Self.marker, decoder: &d)
        #expect(packets(events).count == 2)
        #expect(d.errors.total == 0)
    }
}
