// A duty resolution's quantisation with its constants at hand, for the render loop's hot path: the same
// arithmetic as `DutyResolution.quantize`, without a switch per frame.

struct Quantizer: Sendable {
    /// Raw steps from off to full drive: 255, 65535 or 32767.
    let steps: Double
    /// Lowest drive: 0, or -1 where the board can reverse (i16).
    let lowest: Double

    init(_ resolution: DutyResolution) {
        steps = resolution.stepsPerFullDrive
        lowest = resolution == .i16 ? -1 : 0
    }

    /// The raw value (i16 as its bit pattern) and the drive really output, as `DutyResolution.quantize`.
    @inline(__always)
    func quantize(_ d: Double) -> (raw: UInt16, drive: Double) {
        let q = (min(max(d, lowest), 1) * steps).rounded()
        return (UInt16(truncatingIfNeeded: Int(q)), q / steps)
    }
}
