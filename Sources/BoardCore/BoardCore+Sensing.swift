// The vibration sensor's sampling on the board clock (SENSE, SENSOR, SAMPLES; capability bit 4, revision
// 1.5): sample k at start + k × interval, batches into SAMPLES, drops (counted in `lost`) rather than wait.
// SPDX-License-Identifier: Apache-2.0

#if canImport(MotorWire)
import MotorWire
#endif

/// What the board samples now: the SENSE in force, the next sample's tick and the batch being filled.
public struct Sampling: Sendable {
    public internal(set) var rateHz: UInt16 = 0
    public internal(set) var axes: UInt8 = 0
    public internal(set) var batch: UInt8 = 0
    /// Board ticks between samples (SENSOR `interval_ticks`); 0 when not sampling.
    public internal(set) var intervalTicks: UInt64 = 0
    /// Tick of the next sample: the start tick + k × `intervalTicks`.
    public internal(set) var nextTick: UInt64 = 0
    /// The next SAMPLES' `seq` (batches sent since the SENSE that started sampling).
    public internal(set) var seq: UInt16 = 0
    /// Samples dropped since the last SAMPLES sent (reported, at most 255, in the next one).
    public internal(set) var lost: UInt32 = 0
    var filling = SampleBatch(seq: 0, lost: 0, firstTick: 0, axisCount: 1)

    public init() {}

    public var isOn: Bool { rateHz > 0 }
}

extension BoardCore {
    /// The longest the board samples without a valid frame from the host: 1000 ms (protocol.md, SENSE).
    static var samplingSilenceMs: UInt64 { 1000 }

    /// SENSE: NAK `unknown_type` without a sensor, NAK `bad_config` (detail 0, nothing changed) for what the
    /// sensor cannot do; else start (seq 0, an empty batch, the first sample now), change or stop, and SENSOR.
    mutating func handleSense(rateHz: UInt16, axes: UInt8, batch: UInt8, seq: UInt8, now: UInt64) {
        guard let sensor = port.sensor else {
            nak(.unknownType, seq: seq, type: .sense, detail: UInt32(MessageType.sense.rawValue))
            return
        }
        if rateHz > 0 {
            let k = Sense.axisCount(axes)
            let interval = UInt64(SensorState.intervalTicks(clockHz: info.clockHz, rateHz: rateHz))
            // (An interval of 0 ticks: a rate above twice a slow board clock's, which it cannot time.)
            guard rateHz <= sensor.maxRateHz, axes != 0, axes <= 7, batch != 0,
                  Int(batch) <= Sense.maxBatch(axisCount: k), interval > 0 else {
                nak(.badConfig, seq: seq, type: .sense, detail: 0)
                return
            }
            var s = Sampling()
            s.rateHz = rateHz
            s.axes = axes
            s.batch = batch
            s.intervalTicks = interval
            s.nextTick = now
            s.filling = SampleBatch(seq: 0, lost: 0, firstTick: now, axisCount: UInt8(k))
            sampling = s
        } else {
            sampling = Sampling()
        }
        outbox.push(.sensor(sensorState(sensor)))
    }

    /// SENSOR for what the board samples now.
    func sensorState(_ sensor: SensorDescription) -> SensorState {
        SensorState(rateHz: sampling.rateHz, axes: sampling.axes, batch: sampling.batch,
                    intervalTicks: UInt32(truncatingIfNeeded: sampling.intervalTicks), maxRateHz: sensor.maxRateHz,
                    scaleMicroG: sensor.scaleMicroG, rangeG: sensor.rangeG, part: sensor.part,
                    sensorODRHz: sensor.sensorODRHz)
    }

    /// Reads every sample due by `now` (each at its own tick), sends full batches, and stops after 1000 ms
    /// without a valid frame from the host. Never touches the output. Public for the simulated board, which
    /// catches its sampling up one batch at a time after a late wake (a real board's UART drains meanwhile).
    public mutating func serviceSampling(now: UInt64) {
        guard sampling.isOn else { return }
        if now > lastValidRx && now - lastValidRx > silenceTicks {
            sampling = Sampling()  // the host is gone: a board does not stream to nobody
            return
        }
        while sampling.isOn && sampling.nextTick <= now {
            let tick = sampling.nextTick
            let r = port.readSensor(at: tick)
            if sampling.filling.valueCount == 0 { sampling.filling.firstTick = tick }
            if sampling.axes & Sense.axisX != 0 { sampling.filling.append(r.x) }
            if sampling.axes & Sense.axisY != 0 { sampling.filling.append(r.y) }
            if sampling.axes & Sense.axisZ != 0 { sampling.filling.append(r.z) }
            sampling.nextTick = tick &+ sampling.intervalTicks
            if sampling.filling.count >= Int(sampling.batch) { sendBatch() }
        }
    }

    /// Sends the full batch, or drops it (counted in `lost`) when the outbox has no room to spare: samples
    /// leave three places free for replies and PLAYED, and never wait.
    mutating func sendBatch() {
        if outbox.count < Outbox.capacity - Outbox.keptFromSamples {
            sampling.filling.seq = sampling.seq
            sampling.filling.lost = UInt8(min(sampling.lost, 255))
            outbox.push(.samples(sampling.filling))
            sampling.seq &+= 1
            sampling.lost = 0
        } else {
            sampling.lost &+= UInt32(sampling.filling.count)
        }
        sampling.filling.removeAll()
    }

    var silenceTicks: UInt64 { Self.samplingSilenceMs * UInt64(info.clockHz) / 1000 }

    /// When sampling has work: the next sample's tick, or the silence stop just after its deadline.
    @inline(__always)
    func samplingWake(now: UInt64) -> UInt64 {
        guard sampling.isOn else { return UInt64.max }
        return max(min(sampling.nextTick, lastValidRx &+ silenceTicks &+ 1), now)
    }
}
