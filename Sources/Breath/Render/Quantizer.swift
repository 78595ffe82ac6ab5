// A duty resolution's quantisation with its constants at hand, for the render loop's hot path: the same
// arithmetic as `DutyResolution.quantize`, without a switch or a libm call per frame.
// SPDX-License-Identifier: Apache-2.0

struct Quantizer: Sendable {
    /// Raw steps from off to full drive: 255, 65535 or 32767.
    let steps: Double
    /// Lowest drive: 0, or -1 where the board can reverse (i16).
    let lowest: Double
    let reciprocal: Double

    init(_ resolution: DutyResolution) {
        steps = resolution.stepsPerFullDrive
        lowest = resolution == .i16 ? -1 : 0
        reciprocal = 1 / steps
    }

    /// The raw value (i16 as its bit pattern) and the drive really output, as `DutyResolution.quantize`
    /// (`roundedHalfAwayFromZero` is `.rounded()` here: |x| <= 65535).
    @inline(always)
    func quantize(_ d: Double) -> (raw: UInt16, drive: Double) {
        let q = roundedHalfAwayFromZero(min(max(d, lowest), 1) * steps)
        return (UInt16(truncatingIfNeeded: Int(q)), q / steps)
    }

    /// The drive a raw value outputs (i16 as its bit pattern): the inverse of `quantize`.
    @inline(always)
    func drive(ofRaw raw: UInt16) -> Double {
        (lowest < 0 ? Double(Int16(bitPattern: raw)) : Double(raw)) / steps
    }

    /// A fast guess of `quantize(x / steps).drive` for an `x` already clamped to the steps, usually equal,
    /// not always: it rounds half to even (adding and subtracting 1.5 x 2^52 rounds any |x| <= 2^51 to an
    /// integer) and multiplies by 1 / steps instead of dividing. The caller compares it with the exact value
    /// and uses the exact one where they differ.
    @inline(always)
    func guessDrive(steps x: Double) -> Double {
        ((x + 0x1.8p52) - 0x1.8p52) * reciprocal
    }
}
