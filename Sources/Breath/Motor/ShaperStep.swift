// One frame of the shaper on the render loop's hot path: `Shaper.drive` with the quantisation passed as
// constants instead of a closure, returning the raw duty value.

extension Shaper {
    /// Same as `drive(now:next:quantize:)` with `quantizer.quantize`; returns the raw value.
    @inline(__always)
    mutating func step(now: Double, next: Double, _ quantizer: Quantizer) -> UInt16 {
        var d: Double
        if !compensate {
            d = now
        } else if let m = erm {
            d = ermDrive(m, target: next, rising: next > now)
        } else {
            let m = lra!
            let target = (next - m.amplitude * eRise) / (1 - eRise)
            d = min(max(target / m.resonanceGain, 0), 1)
        }
        if limiter != nil { d = limiter!.limit(d) }
        let (raw, q) = quantizer.quantize(d)
        if erm != nil {
            erm!.advance(drive: q, seconds: dt, riseFactor: eRise, fallFactor: eFall)
        } else {
            let target = min(abs(q), 1) * lra!.resonanceGain
            lra!.amplitude = target + (lra!.amplitude - target) * eRise
        }
        return raw
    }
}
