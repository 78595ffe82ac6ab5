// The messages behind protocol.md's worked examples, by the name each example carries.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

enum Golden {
    static func hostMessages() -> [(name: String, seq: UInt8, message: HostMessage)] {
        var values = DutyValues()
        for v: UInt16 in [0, 1, 128, 255] { values.append(v) }
        var replaced = DutyValues()
        for v: UInt16 in [64, 192] { replaced.append(v) }
        return [
            ("hello", 0, .hello),
            ("configure", 1, .configure(Configure(frameRateHz: 250, dutyFormat: .u8, failsafeMs: 200,
                                                  lraResonanceDeciHz: 0, flags: 0, reportEvery: 25))),
            ("clock-request", 2, .clockRequest(token: 0x0102_0304)),
            ("clock-request-held", 2, .clockRequestHeld(token: 0x0102_0304, holdMs: 45)),
            ("frames", 3, .frames(FramesBlock(firstIndex: 0, format: .u8, values: values))),
            ("start", 4, .start(Start(anchorIndex: 0, anchorTick: 1_000_000, periodQ32: 4000 << 32))),
            ("stop-now", 5, .stop(atIndex: HostMessage.stopNow)),
            ("heartbeat", 6, .heartbeat),
            ("replace", 7, .replace(FramesBlock(firstIndex: 10, format: .u8, values: replaced))),
            ("limits-request", 7, .limitsRequest),
            ("hello-revision", 0, .helloRevision(2)),
            ("sense", 8, .sense(rateHz: 1000, axes: Sense.axisX, batch: 16)),
        ]
    }

    static func boardMessages() -> [(name: String, seq: UInt8, message: BoardMessage)] {
        [
            ("info", 0, .info(Info(firmwareMajor: 0, firmwareMinor: 1, firmwarePatch: 0, motorKind: .erm, pwmBits: 16,
                                   capabilities: Info.capReverse, bufferCapacity: 1024, minFrameRateHz: 50,
                                   maxFrameRateHz: 1000, clockHz: 1_000_000, uniqueID: 0x0123_4567_89AB_CDEF,
                                   lraResonanceDeciHz: 0, name: BoardName("demo")))),
            ("info-revision", 0, .info(Info(firmwareMajor: 0, firmwareMinor: 1, firmwarePatch: 0, motorKind: .erm, pwmBits: 16,
                                            capabilities: Info.capReverse, bufferCapacity: 1024, minFrameRateHz: 50,
                                            maxFrameRateHz: 1000, clockHz: 1_000_000, uniqueID: 0x0123_4567_89AB_CDEF,
                                            lraResonanceDeciHz: 0, name: BoardName("demo"), revision: 2))),
            ("clock", 1, .clock(token: 0x0102_0304, tick: 1_234_567)),
            ("clock-held", 2, .clockHeld(token: 0x0102_0304, tick: 1_234_567, heldTicks: 45_000)),
            ("status", 2, .status(Status(state: .playing, ackSeq: 3, fill: 200, free: 824, nextExpected: 700,
                                         nextPlay: 500, underruns: 0, lateFrames: 0, duplicateFrames: 1,
                                         rxCRCErrors: 2, rxOtherErrors: 0, failsafeTrips: 0, tick: 3_000_000,
                                         output: 16384))),
            ("status-lost", 2, .status(Status(state: .playing, ackSeq: 3, fill: 200, free: 824, nextExpected: 700,
                                              nextPlay: 500, underruns: 0, lateFrames: 0, duplicateFrames: 1,
                                              rxCRCErrors: 2, rxOtherErrors: 0, failsafeTrips: 0, tick: 3_000_000,
                                              output: 16384, rxLostBytes: 3))),
            ("nak", 3, .nak(Nak(code: .gap, refSeq: 9, refType: MessageType.frames.rawValue, detail: 100))),
            ("played", 4, .played(Played(firstIndex: 0, count: 25, lateCount: 0, maxLateTicks: 0, dutyCRC: 0xBEEF,
                                          firstTick: 1_000_000))),
            ("limits", 5, .limits(Limits(ratedMillivolts: 3000, supplyMillivolts: 5000, overdriveMs: 50, recoveryMs: 500))),
            ("sensor", 6, .sensor(SensorState(rateHz: 1000, axes: Sense.axisX, batch: 16, intervalTicks: 1000, maxRateHz: 3200,
                                              scaleMicroG: 3906, rangeG: 16, part: 1, sensorODRHz: 3200))),
            ("samples", 7, .samples(samples())),
        ]
    }

    /// The **samples** example: batch 0, three X samples 256, -256, 0 from tick 1 000 000.
    static func samples() -> SampleBatch {
        var b = SampleBatch(seq: 0, lost: 0, firstTick: 1_000_000, axisCount: 1)
        for v: Int16 in [256, -256, 0] { b.append(v) }
        return b
    }
}
