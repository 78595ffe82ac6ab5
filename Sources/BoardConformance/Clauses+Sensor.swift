// Conformance clauses for the optional vibration sensor (protocol.md section 4, SENSE/SENSOR/SAMPLES;
// capability bit 4, revision 1.5): SENSOR answers SENSE as asked, bad settings are refused, SAMPLES come in
// order, one batch apart, on the board's clock, and stop at rate 0 and when the host goes quiet.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorWire

/// SAMPLES as they arrived, each with the host time it came.
struct ArrivedBatch {
    var batch: SampleBatch
    var hostNs: UInt64
}

extension Conformance {
    static let noSensor = "the board has no vibration sensor (INFO capability bit 4 clear): SENSE is optional"

    /// The settings the sampling clauses use: 200 Hz (or the board's highest, if lower) on X, batches of
    /// 20: 100 ms a batch, so a batch's ticks one batch off are far outside the clock's bounds.
    static func samplingPlan(_ rig: Rig) throws -> (sense: HostMessage, sensor: SensorState) {
        let maxRate = try sensorNow(rig).maxRateHz
        let rate = min(200, maxRate)
        let m = HostMessage.sense(rateHz: rate, axes: Sense.axisX, batch: UInt8(max(1, min(20, Int(rate) / 10))))
        return (m, try sense(rig, m))
    }

    /// SENSE rate 0: the SENSOR saying what the sensor is (and that it samples nothing).
    static func sensorNow(_ rig: Rig) throws -> SensorState {
        try sense(rig, .sense(rateHz: 0, axes: 0, batch: 0))
    }

    /// Sends `m` (a SENSE) and returns the SENSOR answering it.
    static func sense(_ rig: Rig, _ m: HostMessage) throws -> SensorState {
        let got = try rig.exchange(m)
        for case .sensor(let s) in got { return s }
        throw ClauseFailure(description: "\(m.senseBrief): expected SENSOR within 500 ms, got \(got.brief)")
    }

    /// Everything for `ms` with its arrival time, HEARTBEATs every 40 ms unless `quiet`.
    static func arrivals(_ rig: Rig, ms: Int, quiet: Bool = false) throws -> (batches: [ArrivedBatch], lastSentNs: UInt64) {
        let deadline = rig.nowNs + UInt64(ms) * 1_000_000
        var out: [ArrivedBatch] = []
        var lastSent: UInt64 = rig.nowNs
        var nextBeat: UInt64 = 0
        while rig.nowNs < deadline {
            if !quiet && rig.nowNs >= nextBeat {
                try rig.send(.heartbeat)
                lastSent = rig.nowNs
                nextBeat = lastSent + 40_000_000
            }
            for m in try rig.channel.receive(timeoutMs: 10) {
                if case .samples(let b) = m { out.append(ArrivedBatch(batch: b, hostNs: rig.nowNs)) }
            }
        }
        return (out, lastSent)
    }

    static let sensorClauses: [Clause] = [
        Clause("sensor.answer", "4", "SENSE: SENSOR with the rate, axes and batch asked, interval_ticks = round(clock_hz / rate_hz)",
               since: .r1_5) { rig in
            guard rig.info.capabilities & Info.capSensor != 0 else { return .notApplicable(noSensor) }
            let idle = try sensorNow(rig)
            try require(idle.rateHz == 0 && idle.intervalTicks == 0 && idle.maxRateHz > 0 && idle.scaleMicroG > 0,
                        "SENSE rate 0: expected SENSOR rate 0, interval 0, a max rate and a scale, got \(BoardMessage.sensor(idle).brief)")
            var asked: [(UInt16, UInt8, UInt8)] = [(min(1000, idle.maxRateHz), Sense.axisX, 10),
                                                   (idle.maxRateHz, 7, UInt8(Sense.maxBatch(axisCount: 3)))]
            asked.append((min(3, idle.maxRateHz), Sense.axisY | Sense.axisZ, UInt8(Sense.maxBatch(axisCount: 2))))
            for (rate, axes, batch) in asked {
                let s = try sense(rig, .sense(rateHz: rate, axes: axes, batch: batch))
                let interval = SensorState.intervalTicks(clockHz: rig.info.clockHz, rateHz: rate)
                try require(s.rateHz == rate && s.axes == axes && s.batch == batch && s.intervalTicks == interval,
                            "SENSE \(rate) Hz axes \(axes) batch \(batch): expected SENSOR with them and interval \(interval), got \(BoardMessage.sensor(s).brief)")
            }
            let stopped = try sensorNow(rig)
            try require(stopped.rateHz == 0 && stopped.intervalTicks == 0,
                        "SENSE rate 0: expected SENSOR rate 0, interval 0, got \(BoardMessage.sensor(stopped).brief)")
            return .pass("at most \(idle.maxRateHz) Hz, \(idle.scaleMicroG) µg per count, ±\(idle.rangeG) g, part \(idle.part)")
        },
        Clause("sensor.refused", "4", "SENSE the sensor cannot do: NAK bad_config and nothing else; a wrong size: NAK bad_message",
               since: .r1_5) { rig in
            guard rig.info.capabilities & Info.capSensor != 0 else { return .notApplicable(noSensor) }
            let maxRate = try sensorNow(rig).maxRateHz
            let r = min(100, maxRate)
            var bad: [(UInt16, UInt8, UInt8)] = [(r, 0, 1), (r, 8, 1), (r, 1, 0), (r, 1, 115), (r, 7, 39)]
            if maxRate < UInt16.max { bad.append((maxRate + 1, 1, 1)) }
            for (rate, axes, batch) in bad {
                let m = HostMessage.sense(rateHz: rate, axes: axes, batch: batch)
                let got = try rig.exchange(m, settleMs: 30)
                try require(got.count == 1 && got.naks.count == 1 && got.naks[0].code == .badConfig && got.naks[0].refType == 0x0A,
                            "\(m.senseBrief): expected one NAK bad_config and nothing else, got \(got.brief)")
            }
            try rig.sendRaw(rig.rawFrame(type: 0x0A, payload: [100, 0, 1]))
            let got = try rig.collect(ms: 300) { if case .nak = $0 { true } else { false } }
            try require(got.naks.count == 1 && got.naks[0].code == .badMessage && got.naks[0].refType == 0x0A,
                        "SENSE of 3 bytes: expected NAK bad_message, got \(got.brief)")
            return .pass("\(bad.count) settings refused with bad_config, a 3-byte SENSE with bad_message")
        },
        Clause("sensor.seq", "4", "SAMPLES arrive in order, seq 0, 1, 2 ..., each with `batch` samples of the axes asked",
               since: .r1_5) { rig in
            guard rig.info.capabilities & Info.capSensor != 0 else { return .notApplicable(noSensor) }
            let (_, s) = try samplingPlan(rig)
            let got = try arrivals(rig, ms: 700).batches.map(\.batch)
            _ = try sensorNow(rig)
            try require(got.count >= 3, "sampling \(s.rateHz) Hz in batches of \(s.batch) for 700 ms: expected at least 3 SAMPLES, got \(got.count)")
            let seqs = got.map(\.seq)
            try require(seqs == (0..<seqs.count).map { UInt16($0) },
                        "SAMPLES after SENSE: expected seq 0, 1, 2 ... in order, got \(seqs.map(String.init).joined(separator: ", "))")
            let wrong = got.filter { $0.count != Int(s.batch) || $0.axisCount != 1 }
            try require(wrong.isEmpty, "SAMPLES: expected \(s.batch) samples of 1 axis each, got \(wrong.map { "\($0.count) of \($0.axisCount)" })")
            return .pass("\(got.count) batches of \(s.batch) in order")
        },
        Clause("sensor.spacing", "4", "consecutive SAMPLES are (batch + lost) × interval_ticks apart, within interval / 8",
               since: .r1_5) { rig in
            guard rig.info.capabilities & Info.capSensor != 0 else { return .notApplicable(noSensor) }
            let (_, s) = try samplingPlan(rig)
            let got = try arrivals(rig, ms: 700).batches.map(\.batch).sorted { $0.seq < $1.seq }
            _ = try sensorNow(rig)
            try require(got.count >= 3, "sampling for 700 ms: expected at least 3 SAMPLES, got \(got.count)")
            let interval = Int64(s.intervalTicks)
            var worst: Int64 = 0
            for (a, b) in zip(got, got.dropFirst()) where b.seq == a.seq &+ 1 {
                let expected = (Int64(a.count) + Int64(b.lost)) * interval
                let off = Int64(bitPattern: b.firstTick &- a.firstTick) - expected
                try require(abs(off) <= interval / 8,
                            "SAMPLES seq \(a.seq) and \(b.seq): expected first_tick \(expected) ticks apart (± \(interval / 8)), got \(expected + off)")
                worst = max(worst, abs(off))
            }
            return .pass("\(got.count) batches, spacing off by at most \(worst) ticks")
        },
        Clause("sensor.clock", "4", "SAMPLES' ticks are the board clock's: after the SENSE arrived, none ahead of the board when sent",
               since: .r1_5) { rig in
            guard rig.info.capabilities & Info.capSensor != 0 else { return .notApplicable(noSensor) }
            // A CLOCK exchange brackets the board's clock: at host time h it reads between
            // tick + (h - received) x rate and tick + (h - sent) x rate (rate within 1 %, a ceramic resonator).
            let sentNs = rig.nowNs
            let tick = try rig.boardNow()
            let receivedNs = rig.nowNs
            func lowest(_ h: UInt64) -> Double { Double(tick) + (Double(h) - Double(receivedNs)) / 1e9 * Double(rig.clockHz) * 0.99 }
            func highest(_ h: UInt64) -> Double { Double(tick) + (Double(h) - Double(sentNs)) / 1e9 * Double(rig.clockHz) * 1.01 }
            let senseNs = rig.nowNs
            let (_, s) = try samplingPlan(rig)
            let got = try arrivals(rig, ms: 700).batches
            _ = try sensorNow(rig)
            try require(!got.isEmpty, "sampling for 700 ms: expected SAMPLES, got none")
            let slack = Double(s.intervalTicks) / 8
            if let first = got.first(where: { $0.batch.seq == 0 }) {
                try require(Double(first.batch.firstTick) + slack >= lowest(senseNs),
                            "SAMPLES seq 0: expected its first sample read after the SENSE was sent (board tick >= \(UInt64(lowest(senseNs)))), got first_tick \(first.batch.firstTick)")
            }
            var margin = Double.infinity
            for a in got {
                let last = Double(a.batch.firstTick) + Double(max(0, a.batch.count - 1)) * Double(s.intervalTicks)
                try require(last <= highest(a.hostNs) + slack,
                            "SAMPLES seq \(a.batch.seq): expected its last sample read before it arrived (board tick <= \(UInt64(highest(a.hostNs)))), got \(UInt64(last)), \(Int((last - highest(a.hostNs)) * 1000 / Double(rig.clockHz))) ms ahead")
                margin = min(margin, highest(a.hostNs) - last)
            }
            return .pass("\(got.count) batches on the board clock, the closest \(Int(margin * 1000 / Double(rig.clockHz))) ms before its arrival")
        },
        Clause("sensor.stop", "4", "SENSE rate 0: no SAMPLES after its SENSOR (100 ms watched)", since: .r1_5) { rig in
            guard rig.info.capabilities & Info.capSensor != 0 else { return .notApplicable(noSensor) }
            let maxRate = try sensorNow(rig).maxRateHz
            _ = try sense(rig, .sense(rateHz: min(1000, maxRate), axes: Sense.axisX, batch: 10))
            let before = try arrivals(rig, ms: 200).batches
            try require(!before.isEmpty, "sampling \(min(1000, maxRate)) Hz for 200 ms: expected SAMPLES, got none")
            _ = try sensorNow(rig)
            let after = try arrivals(rig, ms: 100).batches
            try require(after.isEmpty, "after SENSOR rate 0: expected no SAMPLES within 100 ms, got \(after.count) (seq \(after.map { String($0.batch.seq) }.joined(separator: ", ")))")
            return .pass("\(before.count) batches, none after the SENSOR rate 0")
        },
        Clause("sensor.silence", "4", "1000 ms without a frame from the host: sampling stops (no SAMPLES 1200 ms after the last)",
               since: .r1_5) { rig in
            guard rig.info.capabilities & Info.capSensor != 0 else { return .notApplicable(noSensor) }
            let maxRate = try sensorNow(rig).maxRateHz
            _ = try sense(rig, .sense(rateHz: min(200, maxRate), axes: Sense.axisX, batch: 10))
            let quietFrom = rig.nowNs
            let got = try arrivals(rig, ms: 1600, quiet: true).batches
            _ = try sensorNow(rig)
            let late = got.filter { $0.hostNs > quietFrom + 1_200_000_000 }
            try require(!got.isEmpty, "sampling, then silence: expected SAMPLES for up to 1000 ms, got none")
            try require(late.isEmpty, "no host message for 1600 ms: expected no SAMPLES after 1200 ms, got \(late.count), the last \((late.last!.hostNs - quietFrom) / 1_000_000) ms after the host's last message")
            return .pass("the last SAMPLES \((got.last!.hostNs - quietFrom) / 1_000_000) ms after the host's last message")
        },
    ]
}

extension HostMessage {
    /// "SENSE 200 Hz axes 1 batch 20", for failure lines.
    var senseBrief: String {
        if case .sense(let r, let a, let b) = self { return "SENSE \(r) Hz axes \(a) batch \(b)" }
        return "\(type)"
    }
}
