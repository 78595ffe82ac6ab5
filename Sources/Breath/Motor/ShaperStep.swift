// The shaper on the render loop's hot path: one frame at a time, raw duty value out, with the quantisation
// passed as constants instead of a closure. For a compensated ERM it keeps the motor's chain short.
// SPDX-License-Identifier: Apache-2.0

extension Shaper {
    /// `drive(now:next:quantize:)` for every frame's targets in turn, with `quantizer.quantize`; the raw
    /// values into `raw`. The shaper's state stays in local variables for the whole block.
    mutating func shape(_ aims: UnsafeBufferPointer<FrameAim>, into raw: UnsafeMutableBufferPointer<UInt16>,
                        _ quantizer: Quantizer) {
        if compensate && limiter == nil, var motor = erm {
            let gains = ERMGuessGains(self, quantizer)
            var corrections = 0
            for j in aims.indices {
                raw[j] = ermStep(&motor, now: aims[j].now, next: aims[j].next, quantizer, gains, corrections: &corrections)
            }
            erm = motor
            guessesCorrected += corrections
        } else {
            var shaper = self
            for j in aims.indices { raw[j] = shaper.step(now: aims[j].now, next: aims[j].next, quantizer) }
            self = shaper
        }
    }

    /// Same as `drive(now:next:quantize:)` with `quantizer.quantize`; returns the raw value.
    @inline(always)
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
        advanceModel(drive: q)
        return raw
    }

    /// One compensated ERM frame (no ceiling), exactly as `drive` computes it, but faster; `m` is the
    /// motor (kept by the caller in a local variable for a whole block).
    ///
    /// Each frame's drive depends on the motor's amplitude after the last frame, so the frames form one long
    /// chain of dependent arithmetic, and two divisions and a rounding on it made the chain the bottleneck.
    /// Here the next amplitude is computed from a fast guess of the drive (`ermGuess`: multiplications, a
    /// cheap rounding), while the exact drive is computed beside it, off the chain. The guess is checked
    /// against the exact drive, bit for bit, and replaced by it where they differ (rarely: a tie, or a
    /// quotient one ulp off), so the amplitude, and every frame, is the exact computation's. The check is a
    /// branch the processor predicts, so it goes on to the next frame without waiting for the exact value.
    @inline(always)
    func ermStep(_ m: inout ERMModel, now: Double, next: Double, _ quantizer: Quantizer, _ gains: ERMGuessGains,
                 corrections: inout Int) -> UInt16 {
        let rising = next > now
        let exact = quantizer.quantize(ermDrive(m, target: next, rising: rising))
        var drive = quantizer.guessDrive(steps: ermGuess(m, target: next, rising: rising, gains, quantizer))
        if drive.bitPattern != exact.drive.bitPattern { drive = Shaper.correct(to: exact.drive, counting: &corrections) }
        m.advance(drive: drive, seconds: dt, riseFactor: eRise, fallFactor: eFall)
        return exact.raw
    }

    /// A guess of `ermDrive(m, ...)` in raw steps (times `quantizer.steps`), clamped as `quantize` clamps:
    /// for a spinning rotor, the same formulas with the divisions by 1 - e turned into multiplications (and
    /// y / (1 - e) computed before the amplitude is known); otherwise (a start, a stall, a brake: rare) the
    /// exact drive.
    @inline(always)
    func ermGuess(_ m: ERMModel, target y: Double, rising: Bool, _ gains: ERMGuessGains, _ quantizer: Quantizer) -> Double {
        let a = m.amplitude
        if m.spinning {
            if y > a {
                // Rising: d > 0; ermDrive and quantize clamp it to 1.
                let x = y * gains.rise - a * gains.riseDecay
                return x < quantizer.steps ? x : quantizer.steps
            }
            if y < a {
                // Falling, not braking: 0 <= d < y.
                let x = y * gains.fall - a * gains.fallDecay
                if x >= 0 { return x }
            } else {
                return y * quantizer.steps
            }
        }
        let x = ermDrive(m, target: y, rising: rising) * quantizer.steps
        let high = x < quantizer.steps ? x : quantizer.steps
        return high > quantizer.lowest * quantizer.steps ? high : quantizer.lowest * quantizer.steps
    }

    /// Counts a wrong guess and returns the exact drive. Not inlined, so the compiler keeps the check a
    /// branch (a select would make the chain wait for the exact value).
    @inline(never)
    static func correct(to exact: Double, counting corrections: inout Int) -> Double {
        corrections += 1
        return exact
    }
}

/// `ermGuess`'s multipliers: steps / (1 - e), and e x steps / (1 - e), for rising and falling.
struct ERMGuessGains {
    let rise: Double, riseDecay: Double
    let fall: Double, fallDecay: Double

    init(_ shaper: Shaper, _ quantizer: Quantizer) {
        rise = shaper.riseGain * quantizer.steps
        riseDecay = shaper.eRise * rise
        fall = shaper.fallGain * quantizer.steps
        fallDecay = shaper.eFall * fall
    }
}
