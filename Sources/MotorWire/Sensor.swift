// SENSE (host -> board, 0x0A), SENSOR and SAMPLES (board -> host, 0x88, 0x89): the optional vibration sensor
// of revision 1.5, advertised by INFO capability bit 4 (protocol.md section 4).
// SPDX-License-Identifier: Apache-2.0

/// SENSE: start, change or stop sampling the board's accelerometer (rate 0 stops it).
public struct Sense: Sendable, Equatable {
    /// Samples per second; 0 stops sampling.
    public var rateHz: UInt16
    /// Bit 0: X, bit 1: Y, bit 2: Z.
    public var axes: UInt8
    /// Samples per SAMPLES message.
    public var batch: UInt8

    public static let payloadSize = 4
    /// Axis bits of `axes`.
    public static let axisX: UInt8 = 0x01
    public static let axisY: UInt8 = 0x02
    public static let axisZ: UInt8 = 0x04

    public init(rateHz: UInt16, axes: UInt8, batch: UInt8) {
        self.rateHz = rateHz
        self.axes = axes
        self.batch = batch
    }

    /// Axes set in `axes` (bits 0-2 only).
    public static func axisCount(_ axes: UInt8) -> Int {
        Int(axes & 1) + Int((axes >> 1) & 1) + Int((axes >> 2) & 1)
    }

    /// Most samples one SAMPLES carries with `axisCount` axes: floor(228 / (2 × axes)), 114 for one axis.
    public static func maxBatch(axisCount: Int) -> Int {
        (Wire.maxPayload - SampleBatch.headerSize) / (2 * max(1, axisCount))
    }
}

/// SENSOR: what the board's sensor is and what it samples now (the answer to SENSE).
public struct SensorState: Sendable, Equatable {
    /// Samples per second in force (0: not sampling).
    public var rateHz: UInt16
    public var axes: UInt8
    public var batch: UInt8
    /// Board ticks from one sample to the next: round(clock_hz / rate_hz); 0 when not sampling.
    public var intervalTicks: UInt32
    /// Highest rate the board samples at.
    public var maxRateHz: UInt16
    /// Acceleration per count, µg.
    public var scaleMicroG: UInt16
    /// The sensor's range, ± g.
    public var rangeG: UInt8
    /// 0: simulated, 1: ADXL345.
    public var part: UInt8
    /// The sensor's own output data rate, Hz.
    public var sensorODRHz: UInt16

    public static let payloadSize = 16

    public init(rateHz: UInt16, axes: UInt8, batch: UInt8, intervalTicks: UInt32, maxRateHz: UInt16,
                scaleMicroG: UInt16, rangeG: UInt8, part: UInt8, sensorODRHz: UInt16) {
        self.rateHz = rateHz
        self.axes = axes
        self.batch = batch
        self.intervalTicks = intervalTicks
        self.maxRateHz = maxRateHz
        self.scaleMicroG = scaleMicroG
        self.rangeG = rangeG
        self.part = part
        self.sensorODRHz = sensorODRHz
    }

    /// round(clockHz / rateHz), the sample interval SENSOR announces (0 for rate 0).
    public static func intervalTicks(clockHz: UInt32, rateHz: UInt16) -> UInt32 {
        guard rateHz > 0 else { return 0 }
        return UInt32((UInt64(clockHz) + UInt64(rateHz) / 2) / UInt64(rateHz))
    }

    func encode(into p: inout FixedBytes) {
        p.appendLE16(rateHz)
        p.append(axes)
        p.append(batch)
        p.appendLE32(intervalTicks)
        p.appendLE16(maxRateHz)
        p.appendLE16(scaleMicroG)
        p.append(rangeG)
        p.append(part)
        p.appendLE16(sensorODRHz)
    }

    init(decoding p: FixedBytes) {
        self.init(rateHz: p.le16(at: 0), axes: p[2], batch: p[3], intervalTicks: p.le32(at: 4),
                  maxRateHz: p.le16(at: 8), scaleMicroG: p.le16(at: 10), rangeG: p[12], part: p[13],
                  sensorODRHz: p.le16(at: 14))
    }
}

/// SAMPLES: `count` samples of `axisCount` axes each, read from `firstTick` on, one `intervalTicks` apart.
///
/// A decoder needs no context for the size: `count` is in the payload, so the axes per sample are
/// (len − 12) / (2 × count), which must be exactly 1, 2 or 3. Which axes they are (X, Y or Z) is the SENSOR
/// in force's `axes`; `values` holds them sample by sample, in the order X, Y, Z of those sampled.
public struct SampleBatch: Sendable, Equatable {
    /// Batch number since the SENSE that started sampling (wraps).
    public var seq: UInt16
    /// Samples lost (transmit queue full) since the previous batch, at most 255.
    public var lost: UInt8
    /// Board tick at which the first sample was read.
    public var firstTick: UInt64
    /// Axes per sample, 1...3.
    public var axisCount: UInt8
    @usableFromInline var storage = InlineArray<114, Int16>(repeating: 0)
    /// Values stored (count × axisCount).
    public private(set) var valueCount = 0

    public static let headerSize = 12
    public static let capacity = 114

    public init(seq: UInt16, lost: UInt8, firstTick: UInt64, axisCount: UInt8) {
        self.seq = seq
        self.lost = lost
        self.firstTick = firstTick
        self.axisCount = max(1, min(3, axisCount))
    }

    /// Samples in the batch (whole ones).
    public var count: Int { valueCount / Int(axisCount) }

    /// Value `axis` (0 ..< axisCount) of sample `sample`.
    @inline(__always)
    public subscript(sample: Int, axis: Int) -> Int16 { storage[sample * Int(axisCount) + axis] }

    /// The value at flat position `i` (sample i / axisCount, axis i % axisCount).
    @inline(__always)
    public func value(_ i: Int) -> Int16 { storage[i] }

    /// Appends one value (the next axis of the sample being filled); false when full.
    @discardableResult @inline(__always)
    public mutating func append(_ v: Int16) -> Bool {
        guard valueCount < SampleBatch.capacity else { return false }
        storage[valueCount] = v
        valueCount += 1
        return true
    }

    /// Empties the values (the header stays).
    public mutating func removeAll() { valueCount = 0 }

    public static func == (a: SampleBatch, b: SampleBatch) -> Bool {
        guard a.seq == b.seq, a.lost == b.lost, a.firstTick == b.firstTick, a.axisCount == b.axisCount,
              a.valueCount == b.valueCount else { return false }
        for i in 0..<a.valueCount where a.storage[i] != b.storage[i] { return false }
        return true
    }

    func encode(into p: inout FixedBytes) {
        p.appendLE16(seq)
        p.append(UInt8(truncatingIfNeeded: count))
        p.append(lost)
        p.appendLE64(firstTick)
        for i in 0..<(count * Int(axisCount)) { p.appendLE16(UInt16(bitPattern: storage[i])) }
    }

    /// Strict: count ≥ 1 and the size exactly 12 + count × k × 2 for k in 1...3.
    init?(decoding p: FixedBytes) {
        guard p.count > SampleBatch.headerSize else { return nil }
        let n = Int(p[2])
        let body = p.count - SampleBatch.headerSize
        guard n >= 1, body % (2 * n) == 0 else { return nil }
        let k = body / (2 * n)
        guard k >= 1, k <= 3 else { return nil }
        self.init(seq: p.le16(at: 0), lost: p[3], firstTick: p.le64(at: 4), axisCount: UInt8(k))
        for i in 0..<(n * k) { append(Int16(bitPattern: p.le16(at: SampleBatch.headerSize + 2 * i))) }
    }
}
