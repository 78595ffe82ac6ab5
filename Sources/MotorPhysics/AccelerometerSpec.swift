// The accelerometer on a motor's mounting, as a motor file describes it: range, resolution, noise, rate.
// SPDX-License-Identifier: Apache-2.0

/// An accelerometer fixed to the motor's mounting: what the simulated board's sensor reads like, and what a
/// real board's SENSOR says of its part. The default is an ADXL345 at full resolution (datasheet: 3.9
/// mg/LSB, ±16 g, output data rate up to 3200 Hz, noise about 1.1 LSB rms on x and y at 100 Hz).
public struct AccelerometerSpec: Sendable, Equatable, Codable {
    /// ± range, g.
    public var rangeG: Double = 16
    /// Acceleration per count, µg.
    public var scaleMicroG: Double = 3906.25
    /// Noise, g rms per axis (white, at the output data rate).
    public var noiseG: Double = 0.0045
    /// The sensor's own output data rate, Hz: a read returns the newest of its samples.
    public var odrHz: Double = 3200
    /// Highest rate the board samples it at, Hz.
    public var maxRateHz: Double = 3200

    public init() {}

    /// One reading of acceleration `g` (per axis) in counts: clipped to the range, rounded to the scale.
    /// `noise` is per-axis noise in g the caller draws (seeded), added before rounding.
    public func counts(_ g: SIMD3<Double>, noise: SIMD3<Double> = .zero) -> SIMD3<Int16> {
        func one(_ v: Double) -> Int16 {
            let clipped = max(-rangeG, min(rangeG, v))
            let c = (clipped * 1_000_000 / scaleMicroG).rounded()
            return Int16(max(-32768, min(32767, c)))
        }
        let v = g + noise
        return SIMD3(one(v.x), one(v.y), one(v.z))
    }
}
