// Percentiles of a stream of non-negative values in constant memory (an 8-hour session has millions of
// frames): log-linear buckets, exact below 204.8 (in the caller's unit, at 0.1 resolution) and within
// 0.1 % above, with the exact minimum and maximum.
// SPDX-License-Identifier: Apache-2.0

/// Percentiles of a stream of non-negative values in constant memory (an 8-hour session has millions of
/// frames): log-linear buckets, exact below 204.8 (in the caller's unit, at 0.1 resolution) and within 0.1 %
/// above, with the exact minimum and maximum. Non-finite values are ignored, negative ones count as 0.
///
///     var sketch = PercentileSketch()
///     for errorUs in [12.0, 15.5, 9.1, 240.0] { sketch.add(errorUs) }
///     let p = sketch.percentiles  // min, p50, p99, max, count
public struct PercentileSketch: Sendable {
    private var buckets: [UInt32] = []
    /// Values added so far.
    public private(set) var count = 0
    private var low = Double.infinity
    private var high = 0.0

    /// An empty sketch.
    public init() {}

    /// Adds one value (in the caller's unit).
    public mutating func add(_ value: Double) {
        guard value.isFinite else { return }
        let v = max(0, value)
        let i = PercentileSketch.bucket(v)
        if i >= buckets.count { buckets += [UInt32](repeating: 0, count: i + 1 - buckets.count) }
        buckets[i] += 1
        count += 1
        low = min(low, v)
        high = max(high, v)
    }

    /// Values in tenths: exact below 2048 tenths, then 1024 buckets per power of two.
    static func bucket(_ v: Double) -> Int {
        let n = UInt64(min(v * 10, 9e18).rounded())
        guard n >= 2048 else { return Int(n) }
        let top = 63 - n.leadingZeroBitCount
        let shift = top - 10
        return 2048 + (top - 11) * 1024 + Int(n >> UInt64(shift)) - 1024
    }

    /// The middle of bucket `i`, in the caller's unit.
    static func value(ofBucket i: Int) -> Double {
        guard i >= 2048 else { return Double(i) / 10 }
        let top = (i - 2048) / 1024 + 11
        let shift = top - 10
        let m = UInt64((i - 2048) % 1024 + 1024)
        return (Double(m << UInt64(shift)) + Double(UInt64(1) << UInt64(shift)) / 2) / 10
    }

    /// min, p50, p99, max, as `Percentiles(values)` would give them (p50/p99 to the bucket's precision).
    public var percentiles: Percentiles {
        var p = Percentiles()
        guard count > 0 else { return p }
        func at(_ q: Double) -> Double {
            let rank = Int((q * Double(count - 1)).rounded())
            var seen = 0
            for (i, n) in buckets.enumerated() where n > 0 {
                seen += Int(n)
                if seen > rank { return min(high, max(low, PercentileSketch.value(ofBucket: i))) }
            }
            return high
        }
        p.min = low
        p.p50 = at(0.5)
        p.p99 = at(0.99)
        p.max = high
        p.count = count
        return p
    }
}
