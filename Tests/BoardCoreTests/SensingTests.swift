// The vibration sensor in BoardCore (SENSE, SENSOR, SAMPLES; revision 1.5) on virtual ticks: samples at
// exactly start + k × interval, seq and lost, the NAKs, the silence stop, and playback untouched by it.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import MotorWire
import TestSupport
import Testing

/// A port with a sensor whose reading is a function of the tick it is read at, so every value says when it
/// was read; it records each read and each level change.
struct SensingPort: MotorPort {
    var log: [(tick: UInt64, level: Int16)] = []
    var reads: [UInt64] = []
    var hasSensor = true
    mutating func schedule(level: Int16, at tick: UInt64) { log.append((tick, level)) }
    mutating func off(at tick: UInt64) {
        while let last = log.last, last.tick > tick { log.removeLast() }
        if log.last?.level != 0 { log.append((tick, 0)) }
    }
    var sensor: SensorDescription? {
        hasSensor ? SensorDescription(maxRateHz: 3200, scaleMicroG: 3906, rangeG: 16, part: 0, sensorODRHz: 3200) : nil
    }
    mutating func readSensor(at tick: UInt64) -> SensorSample {
        reads.append(tick)
        return SensingPort.reading(tick)
    }
    static func reading(_ tick: UInt64) -> SensorSample {
        let v = Int16(truncatingIfNeeded: tick / 100 % 30_000)
        return SensorSample(x: v, y: v &+ 1, z: -v)
    }
}

/// BoardCore on a SensingPort, driven in board ticks: each step services at the tick `nextWake` names.
struct SenseBench {
    var core: BoardCore<SensingPort>
    var seq: UInt8 = 0
    var replies: [BoardMessage] = []
    var decoder = FrameDecoder()
    /// Ticks `service` ran at.
    var serviced: [UInt64] = []

    init(sensor: Bool = true, caps: UInt8 = Info.capReverse) {
        var port = SensingPort()
        port.hasSensor = sensor
        core = BoardCore(port: port, info: Bench.info(caps: caps))
        core.boot(now: 0)
        collect()
    }

    @discardableResult
    mutating func send(_ m: HostMessage, at now: UInt64) -> [BoardMessage] {
        var wire = FixedBytes()
        precondition(m.encode(seq: seq, into: &wire))
        seq &+= 1
        for i in 0..<wire.count { core.receive(wire[i], now: now) }
        return collect()
    }

    /// Services at every wake up to `end`; drains the outbox after each unless `holdOutbox`.
    mutating func run(until end: UInt64, from start: UInt64, holdOutbox: Bool = false) {
        var t = start
        while true {
            let wake = core.nextWake(now: t)
            guard wake <= end else { break }
            t = wake
            core.service(now: t)
            serviced.append(t)
            if !holdOutbox { collect() }
        }
    }

    @discardableResult
    mutating func collect() -> [BoardMessage] {
        let out = drainMessages(&core, &decoder)
        replies += out
        return out
    }

    var batches: [SampleBatch] { replies.compactMap { if case .samples(let b) = $0 { return b } else { return nil } } }
    var sensors: [SensorState] { replies.compactMap { if case .sensor(let s) = $0 { return s } else { return nil } } }
    var played: [Played] { replies.compactMap { if case .played(let p) = $0 { return p } else { return nil } } }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SensingTests {
    @Test func capabilityBit4IsThePortsToSay() {
        #expect(SenseBench().core.info.capabilitySet.contains(.sensor))
        #expect(!SenseBench(sensor: false, caps: Info.capReverse | Info.capSensor).core.info.capabilitySet.contains(.sensor))
    }

    /// 1000 Hz on the 1 MHz clock, X and Z, batches of 10 from tick 5000: sample k read at exactly 5000 +
    /// 1000 k (the core wakes there and nowhere else), batch s stamped 5000 + 10 000 s, the values those reads.
    @Test func samplesAreReadAtExactlyStartPlusKIntervals() throws {
        var b = SenseBench()
        let answer = b.send(.sense(rateHz: 1000, axes: Sense.axisX | Sense.axisZ, batch: 10), at: 5000)
        #expect(answer == [.sensor(SensorState(rateHz: 1000, axes: 5, batch: 10, intervalTicks: 1000, maxRateHz: 3200,
                                               scaleMicroG: 3906, rangeG: 16, part: 0, sensorODRHz: 3200))])
        b.run(until: 505_000, from: 5000)
        let batches = b.batches
        #expect(batches.count == 50)
        #expect(b.core.port.reads == (0...500).map { 5000 + UInt64($0) * 1000 })
        #expect(b.serviced == b.core.port.reads, "woke only for samples")
        for (s, batch) in batches.enumerated() {
            #expect(batch.seq == UInt16(s) && batch.lost == 0 && batch.count == 10 && batch.axisCount == 2)
            #expect(batch.firstTick == 5000 + UInt64(s) * 10_000)
            for j in 0..<10 {
                let r = SensingPort.reading(batch.firstTick + UInt64(j) * 1000)
                #expect(batch[j, 0] == r.x && batch[j, 1] == r.z)
            }
        }
    }

    /// With the outbox held full the batches are dropped and counted, replies still get through, and the
    /// next batch sent says how many were lost: its first tick is (lost + 1) intervals after the last sent.
    @Test func aFullOutboxDropsBatchesAndCountsThem() throws {
        var b = SenseBench()
        b.send(.sense(rateHz: 2000, axes: Sense.axisY, batch: 1), at: 0)  // interval 500
        b.run(until: 49 * 500, from: 0, holdOutbox: true)  // 50 samples, nothing drained
        #expect(b.core.sampling.lost == 45, "5 batches fit beside the 3 places kept for replies")
        let status = b.send(.heartbeat, at: 49 * 500 + 10)
        #expect(status.contains { if case .status = $0 { true } else { false } }, "a reply still fits: \(status)")
        b.run(until: 60 * 500, from: 49 * 500 + 10)
        let batches = b.batches
        #expect(batches.map(\.seq) == (0..<16).map { UInt16($0) }, "a dropped batch takes no seq")
        #expect(batches[4].firstTick == 4 * 500 && batches[5].lost == 45)
        #expect(batches[5].firstTick - batches[4].firstTick == UInt64(batches[5].lost + 1) * 500)
        #expect(batches.dropFirst(6).allSatisfy { $0.lost == 0 } && batches.prefix(5).allSatisfy { $0.lost == 0 })
        // More than 255 lost: the count saturates.
        b.run(until: 400 * 500, from: 60 * 500, holdOutbox: true)
        b.collect()
        b.run(until: 402 * 500, from: 400 * 500)
        #expect(b.batches.first { $0.firstTick > 400 * 500 }?.lost == 255)
    }

    @Test func senseIsRefusedAsTheProtocolSays() throws {
        var none = SenseBench(sensor: false)
        #expect(none.send(.sense(rateHz: 100, axes: 1, batch: 1), at: 10)
                == [.nak(Nak(code: .unknownType, refSeq: 0, refType: 0x0A, detail: 0x0A))])
        var b = SenseBench()
        b.send(.sense(rateHz: 100, axes: 1, batch: 4), at: 0)
        let refused: [(UInt16, UInt8, UInt8)] = [(3201, 1, 1), (100, 0, 1), (100, 8, 1), (100, 1, 0), (100, 1, 115),
                                                  (100, 7, 39), (100, 3, 58)]
        for (rate, axes, batch) in refused {
            let got = b.send(.sense(rateHz: rate, axes: axes, batch: batch), at: 1)
            #expect(got == [.nak(Nak(code: .badConfig, refSeq: b.seq &- 1, refType: 0x0A, detail: 0))], "\(rate) \(axes) \(batch)")
        }
        #expect(b.core.sampling.rateHz == 100 && b.core.sampling.batch == 4, "a refused SENSE changes nothing")
        for (axes, batch) in [(UInt8(1), UInt8(114)), (7, 38), (3, 57)] {
            #expect(b.send(.sense(rateHz: 3200, axes: axes, batch: batch), at: 2).count == 1)
            #expect(b.sensors.last?.batch == batch)
        }
        // A wrong payload size: NAK bad_message.
        var wire = FixedBytes()
        _ = Packet(type: 0x0A, seq: 77, payload: { var p = FixedBytes(); for x: UInt8 in [1, 0, 1] { p.append(x) }; return p }())
            .encode(into: &wire)
        for i in 0..<wire.count { b.core.receive(wire[i], now: 3) }
        #expect(b.collect() == [.nak(Nak(code: .badMessage, refSeq: 77, refType: 0x0A, detail: 0))])
        // Rate 0 stops, whatever axes and batch say, and SENSOR says so.
        #expect(b.send(.sense(rateHz: 0, axes: 0, batch: 0), at: 4)
                == [.sensor(SensorState(rateHz: 0, axes: 0, batch: 0, intervalTicks: 0, maxRateHz: 3200, scaleMicroG: 3906,
                                        rangeG: 16, part: 0, sensorODRHz: 3200))])
        #expect(!b.core.sampling.isOn && b.core.nextWake(now: 4) == UInt64.max)
        // A board clock too slow to time the rate (interval 0): refused, not a loop that never ends.
        var info = Bench.info()
        info.clockHz = 1000
        var slow = SenseBench()
        slow.core = BoardCore(port: SensingPort(), info: info)
        #expect(slow.send(.sense(rateHz: 2001, axes: 1, batch: 1), at: 0).first
                == .nak(Nak(code: .badConfig, refSeq: 0, refType: 0x0A, detail: 0)))
        #expect(slow.send(.sense(rateHz: 1999, axes: 1, batch: 1), at: 0).first.map { if case .sensor = $0 { true } else { false } } == true)
    }

    /// 1000 ms without a valid frame from the host: the last sample is read no later than 1 s after it, and
    /// the core stops waking; a HEARTBEAT before then keeps it sampling; a boot stops it.
    @Test func samplingStopsAfterASecondOfSilenceAndAtBoot() throws {
        var b = SenseBench()
        b.send(.sense(rateHz: 100, axes: 1, batch: 1), at: 1000)  // interval 10 000
        b.run(until: 3_000_000, from: 1000)
        #expect(b.core.port.reads.last == 1_001_000)
        #expect(!b.core.sampling.isOn && b.core.nextWake(now: 3_000_000) == UInt64.max)

        var fed = SenseBench()
        fed.send(.sense(rateHz: 100, axes: 1, batch: 1), at: 0)
        fed.run(until: 900_000, from: 0)
        fed.send(.heartbeat, at: 900_000)
        fed.run(until: 1_800_000, from: 900_000)
        #expect(fed.core.port.reads.last == 1_800_000 && fed.core.sampling.isOn)
        fed.core.boot(now: 1_800_001)
        #expect(!fed.core.sampling.isOn)
    }

    /// The same playback with and without sampling at 3200 Hz on three axes: every PLAYED (duty_crc,
    /// first_tick, lateness) and every output change is the same.
    @Test func samplingBesidePlaybackChangesNoPlayedFrame() throws {
        func play(sampling: Bool) -> (played: [Played], log: [String], batches: Int) {
            var b = SenseBench()
            b.send(.configure(Configure(frameRateHz: 1000, dutyFormat: .u8, failsafeMs: 200, reportEvery: 7)), at: 0)
            if sampling { b.send(.sense(rateHz: 3200, axes: 7, batch: 8), at: 100) }
            var values = DutyValues()
            for i in 0..<200 { values.append(UInt16((i * 37) % 256)) }
            b.send(.frames(FramesBlock(firstIndex: 0, format: .u8, values: values)), at: 200)
            b.send(.start(Start(anchorIndex: 0, anchorTick: 10_000, periodQ32: 1000 << 32)), at: 300)
            b.run(until: 150_000, from: 300)
            b.send(.heartbeat, at: 150_000)
            b.run(until: 260_000, from: 150_000)
            return (b.played, b.core.port.log.map { "\($0.tick):\($0.level)" }, b.batches.count)
        }
        let without = play(sampling: false), with = play(sampling: true)
        #expect(with.batches > 90 && without.batches == 0)
        #expect(without.played.map(\.count).reduce(0, +) >= 200, "the 200 frames, then underruns")
        #expect(with.played == without.played)
        #expect(with.log == without.log)
    }
}
