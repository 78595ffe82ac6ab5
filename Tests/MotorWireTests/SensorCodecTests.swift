// SENSE, SENSOR and SAMPLES (revision 1.5): exact sizes both ways, SAMPLES' axes per sample read from its
// size and count, and round trips of every batch shape.
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SensorCodecTests {
    func samples(_ bytes: [UInt8]) throws(WireError) -> BoardMessage {
        try BoardMessage(Packet(type: MessageType.samples.rawValue, seq: 0, payload: fixed(bytes)))
    }

    @Test func senseAndSensorSizesAreExact() throws {
        for size in [0, 3, 5] {
            let p = fixed([UInt8](repeating: 1, count: size))
            #expect(throws: WireError.badPayload(.sense)) { try HostMessage(Packet(type: 0x0A, seq: 0, payload: p)) }
        }
        #expect(try HostMessage(Packet(type: 0x0A, seq: 0, payload: fixed([0x40, 0x06, 7, 38])))
                == .sense(rateHz: 1600, axes: 7, batch: 38))
        for size in [15, 17] {
            let p = fixed([UInt8](repeating: 1, count: size))
            #expect(throws: WireError.badPayload(.sensor)) { try BoardMessage(Packet(type: 0x88, seq: 0, payload: p)) }
        }
        #expect(SensorState.intervalTicks(clockHz: 1_000_000, rateHz: 3) == 333_333)
        #expect(SensorState.intervalTicks(clockHz: 1_000_000, rateHz: 1600) == 625)
        #expect(SensorState.intervalTicks(clockHz: 16_000_000, rateHz: 3000) == 5333)
        #expect(SensorState.intervalTicks(clockHz: 1_000_000, rateHz: 0) == 0)
    }

    /// Every count and axes count encodes to 12 + n × k × 2 bytes and decodes to the same batch.
    @Test func everyBatchShapeRoundTrips() throws {
        for k in 1...3 {
            for n in [1, 2, 16, Sense.maxBatch(axisCount: k)] {
                var b = SampleBatch(seq: UInt16(n * 257), lost: UInt8(k), firstTick: 0x0102_0304_0506_0708 &* UInt64(n),
                                    axisCount: UInt8(k))
                for i in 0..<(n * k) { b.append(Int16(truncatingIfNeeded: i * 1237 - 30_000)) }
                #expect(b.count == n)
                let m = BoardMessage.samples(b)
                #expect(m.payload().count == 12 + n * k * 2)
                #expect(try BoardMessage(Packet(type: 0x89, seq: 3, payload: m.payload())) == m)
            }
        }
        var full = SampleBatch(seq: 0, lost: 0, firstTick: 0, axisCount: 1)
        for _ in 0..<SampleBatch.capacity { full.append(1) }
        let appended = full.append(1)
        #expect(!appended)
    }

    /// Sizes that fit no k in 1...3 for the count given, a count of 0 and a header alone are refused.
    @Test func samplesOfAnyOtherSizeAreRefused() {
        let header: [UInt8] = [0, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0]  // count 2
        for body in [0, 1, 2, 3, 5, 7, 16, 18] {  // 4, 8 and 12 bytes are 1, 2 and 3 axes
            #expect(throws: WireError.badPayload(.samples)) { try samples(header + [UInt8](repeating: 9, count: body)) }
        }
        var zero = header
        zero[2] = 0
        #expect(throws: WireError.badPayload(.samples)) { try samples(zero + [1, 2]) }
        for (body, k) in [(4, 1), (8, 2), (12, 3)] {
            guard case .samples(let b)? = try? samples(header + [UInt8](repeating: 9, count: body)) else {
                Issue.record("\(body) bytes for 2 samples: expected SAMPLES of \(k) axes")
                continue
            }
            #expect(Int(b.axisCount) == k && b.count == 2 && b[1, k - 1] == 0x0909)
        }
    }
}
