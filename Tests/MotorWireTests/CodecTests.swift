// CRC and COBS against published vectors; strict payload sizes; round trips of every message.
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct CodecTests {
    @Test func crcCheckValue() {
        var crc = CRC16()
        for b in Array("123456789".utf8) { crc.update(b) }
        #expect(crc.value == 0x29B1)
    }

    @Test(arguments: [
        ("00", "01 01"),
        ("00 00", "01 01 01"),
        ("11 22 00 33", "03 11 22 02 33"),
        ("11 22 33 44", "05 11 22 33 44"),
        ("11 00 00 00", "02 11 01 01 01"),
    ])
    func cobsPaperExamples(raw: String, encoded: String) {
        var out = FixedBytes()
        #expect(COBS.encode(fixed(hexBytes(raw)), into: &out))
        #expect(array(out) == hexBytes(encoded))
        var back = out
        #expect(COBS.decodeInPlace(&back))
        #expect(array(back) == hexBytes(raw))
    }

    @Test func cobsLongRunsRoundTrip() {
        for length in [0, 1, 246, 253, 254] {
            for zeroEvery in [0, 1, 7, 100] {
                let raw = (0..<length).map { i -> UInt8 in
                    zeroEvery > 0 && i % zeroEvery == 0 ? 0 : UInt8(truncatingIfNeeded: i % 255 + 1)
                }
                var enc = FixedBytes()
                guard COBS.encode(fixed(raw), into: &enc) else {
                    Issue.record("encode failed at \(length)")
                    continue
                }
                #expect(!array(enc).contains(0))
                #expect(enc.count <= raw.count + 1 + raw.count / 254 + 1)
                var dec = enc
                #expect(COBS.decodeInPlace(&dec))
                #expect(array(dec) == raw, "length \(length) zeroEvery \(zeroEvery)")
            }
        }
        // 254 non-zero bytes need the 0xFF group code.
        var enc = FixedBytes()
        _ = COBS.encode(fixed([UInt8](repeating: 7, count: 254)), into: &enc)
        #expect(enc[0] == 0xFF && enc.count == 256)
        // Longer than any v1 frame: the encoder reports overflow instead of writing past the buffer.
        #expect(!COBS.encode(fixed([UInt8](repeating: 7, count: 255)), into: &enc))
    }

    @Test func payloadSizesAreStrict() throws {
        // A HEARTBEAT with one stray payload byte, and a CLOCK_REQ one byte short.
        for (type, size) in [(MessageType.heartbeat, 1), (.clockRequest, 3), (.start, 19), (.configure, 11)] {
            var payload = FixedBytes()
            for _ in 0..<size { payload.append(1) }
            #expect(throws: WireError.badPayload(type)) { try HostMessage(Packet(type: type.rawValue, seq: 0, payload: payload)) }
        }
        #expect(throws: WireError.unknownType(0x7F)) { try HostMessage(Packet(type: 0x7F, seq: 0)) }
        #expect(throws: WireError.unknownType(0x84)) { try HostMessage(Packet(type: 0x84, seq: 0)) }
        #expect(throws: WireError.unknownType(0x01)) { try BoardMessage(Packet(type: 0x01, seq: 0)) }
        // HELLO is empty or carries host_revision (revision 1.2), nothing longer.
        #expect(throws: WireError.badPayload(.hello)) { try HostMessage(Packet(type: 0x01, seq: 0, payload: fixed([2, 0]))) }
    }

    /// INFO's extension (protocol.md section 10) is exact: laid out for the lower of the board's revision and
    /// this host's, so a later board's INFO has the size of this revision's extension, and any other is refused.
    @Test func infoExtensionSizesAreExact() throws {
        let plain = BoardMessage.info(Info(firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0, motorKind: .erm, pwmBits: 8,
                                           capabilities: 0, bufferCapacity: 256, minFrameRateHz: 50, maxFrameRateHz: 1000,
                                           clockHz: 1_000_000, uniqueID: 7, lraResonanceDeciHz: 0, name: BoardName("b")))
        let base = array(plain.payload())
        func info(_ extra: [UInt8]) throws -> Info {
            guard case .info(let i) = try BoardMessage(Packet(type: 0x81, seq: 0, payload: fixed(base + extra))) else {
                throw WireError.badPayload(.info)
            }
            return i
        }
        #expect(try info([]).revision == nil)
        #expect(try info([Wire.revision]).revision == Wire.revision)
        #expect(try info([Wire.revision + 1]).revision == Wire.revision + 1)  // a later board, our layout
        #expect(throws: WireError.badPayload(.info)) { try info([Wire.revision, 0]) }
        #expect(throws: WireError.badPayload(.info)) { try info([0]) }  // revision 1.0 has no extension
    }

    /// STATUS is 42 bytes, or 46 with revision 1.3's rx_lost_bytes (protocol.md section 10); nothing else.
    @Test func statusSizesAreExact() throws {
        let s = Status(state: .idle, ackSeq: 0, fill: 0, free: 64, nextExpected: 0, nextPlay: 0, underruns: 0,
                       lateFrames: 0, duplicateFrames: 0, rxCRCErrors: 0, rxOtherErrors: 0, failsafeTrips: 0,
                       tick: 5, output: 0)
        let old = array(BoardMessage.status(s).payload())
        var withLost = s
        withLost.rxLostBytes = 0x0102_0304
        let new = array(BoardMessage.status(withLost).payload())
        #expect(old.count == Status.payloadSize && new.count == Status.payloadSizeLost)
        #expect(try BoardMessage(Packet(type: 0x84, seq: 0, payload: fixed(old))) == .status(s))
        #expect(try BoardMessage(Packet(type: 0x84, seq: 0, payload: fixed(new))) == .status(withLost))
        #expect(throws: WireError.badPayload(.status)) { try BoardMessage(Packet(type: 0x84, seq: 0, payload: fixed(old + [1, 2]))) }
        #expect(throws: WireError.badPayload(.status)) { try BoardMessage(Packet(type: 0x84, seq: 0, payload: fixed(new + [1]))) }
    }

    /// CLOCK_REQ is 4 bytes, or 5 with revision 1.4's hold_ms; CLOCK is 12, or 16 with its held ticks; nothing else.
    @Test func clockSizesAreExact() throws {
        func request(_ bytes: [UInt8]) throws(WireError) -> HostMessage {
            try HostMessage(Packet(type: MessageType.clockRequest.rawValue, seq: 0, payload: fixed(bytes)))
        }
        func answer(_ bytes: [UInt8]) throws(WireError) -> BoardMessage {
            try BoardMessage(Packet(type: MessageType.clock.rawValue, seq: 0, payload: fixed(bytes)))
        }
        #expect(try request([4, 3, 2, 1]) == .clockRequest(token: 0x0102_0304))
        #expect(try request([4, 3, 2, 1, 200]) == .clockRequestHeld(token: 0x0102_0304, holdMs: 200))
        #expect(throws: WireError.badPayload(.clockRequest)) { try request([4, 3, 2, 1, 200, 0]) }
        let tick: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0]
        #expect(try answer([4, 3, 2, 1] + tick) == .clock(token: 0x0102_0304, tick: 1))
        #expect(try answer([4, 3, 2, 1] + tick + [0x10, 0, 0, 0]) == .clockHeld(token: 0x0102_0304, tick: 1, heldTicks: 16))
        for n in [13, 14, 15, 17] {
            #expect(throws: WireError.badPayload(.clock)) { try answer(Array(repeating: 1, count: n)) }
        }
    }

    @Test func framesRejectsBadCountsAndFormats() {
        func frames(_ bytes: [UInt8]) throws(WireError) -> HostMessage {
            try HostMessage(Packet(type: MessageType.frames.rawValue, seq: 0, payload: fixed(bytes)))
        }
        #expect(throws: WireError.badPayload(.frames)) { try frames([0, 0, 0, 0, 1, 0]) }          // n = 0
        #expect(throws: WireError.badPayload(.frames)) { try frames([0, 0, 0, 0, 1, 2, 9]) }       // n = 2, 1 value
        #expect(throws: WireError.badPayload(.frames)) { try frames([0, 0, 0, 0, 9, 1, 9]) }       // format 9
        #expect(throws: WireError.badPayload(.frames)) { try frames([0, 0, 0, 0, 3, 1, 0x00, 0x80]) }  // i16 -32768
        #expect(throws: WireError.badPayload(.frames)) { try frames([0, 0, 0, 0, 1, 235] + [UInt8](repeating: 1, count: 234)) }
    }

    @Test func randomMessagesRoundTrip() throws {
        var rng = SplitMix(seed: 42)
        for _ in 0..<2000 {
            let format = DutyFormat.allCases[Int(rng.next() % 3)]
            var values = DutyValues()
            for _ in 0..<(1 + Int(rng.next() % UInt64(format.maxPerMessage))) {
                var v = UInt16(truncatingIfNeeded: rng.next())
                if format == .u8 { v &= 0xFF }
                if format == .i16 && v == 0x8000 { v = 0 }
                values.append(v)
            }
            let messages: [HostMessage] = [
                .frames(FramesBlock(firstIndex: UInt32(truncatingIfNeeded: rng.next()), format: format, values: values)),
                .start(Start(anchorIndex: UInt32(truncatingIfNeeded: rng.next()), anchorTick: rng.next(), periodQ32: rng.next())),
                .stop(atIndex: UInt32(truncatingIfNeeded: rng.next())),
                .clockRequest(token: UInt32(truncatingIfNeeded: rng.next())),
            ]
            for m in messages {
                let seq = UInt8(truncatingIfNeeded: rng.next())
                var d = FrameDecoder()
                let ps = packets(decodeAll(wireBytes(m, seq: seq), decoder: &d))
                try #require(ps.count == 1)
                #expect(try HostMessage(ps[0]) == m)
                #expect(ps[0].seq == seq)
            }
            let status = BoardMessage.status(Status(
                state: BoardState.allCases[Int(rng.next() % 5)], ackSeq: UInt8(truncatingIfNeeded: rng.next()),
                fill: UInt16(truncatingIfNeeded: rng.next()), free: UInt16(truncatingIfNeeded: rng.next()),
                nextExpected: UInt32(truncatingIfNeeded: rng.next()), nextPlay: UInt32(truncatingIfNeeded: rng.next()),
                underruns: UInt32(truncatingIfNeeded: rng.next()), lateFrames: UInt32(truncatingIfNeeded: rng.next()),
                duplicateFrames: UInt32(truncatingIfNeeded: rng.next()), rxCRCErrors: UInt16(truncatingIfNeeded: rng.next()),
                rxOtherErrors: UInt16(truncatingIfNeeded: rng.next()), failsafeTrips: UInt16(truncatingIfNeeded: rng.next()),
                tick: rng.next(), output: Int16(truncatingIfNeeded: rng.next())))
            var d = FrameDecoder()
            let ps = packets(decodeAll(wireBytes(status, seq: 1), decoder: &d))
            #expect(try BoardMessage(ps[0]) == status)
        }
    }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct TimebaseRoundingTests {
    /// protocol.md: due(i) = anchor_tick + floor((int32)(i - anchor_index) * period_q32 / 2^32); before the
    /// anchor a fraction rounds down (one tick earlier), not toward zero.
    @Test func dueTicksFloorBeforeTheAnchor() {
        let tb = Timebase(anchorIndex: 10, anchorTick: 1_000_000, periodQ32: (4000 << 32) + (1 << 31))  // 4000.5 ticks
        #expect(tb.due(11) == 1_004_000)   // 1 000 000 + floor(4000.5)
        #expect(tb.due(9) == 995_999)      // 1 000 000 + floor(-4000.5) = -4001
        #expect(tb.due(8) == 991_999)      // -8001 exactly
        #expect(tb.due(10) == 1_000_000)
    }
}
