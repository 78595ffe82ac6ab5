// The palette's steady vibration: one long phase at a constant level, looping, whose intensity and
// sharpness the controls change (`motorbreath palette`, `serve --palette`); and the length check of a
// session given in cycles, made before the plan is laid out.
// SPDX-License-Identifier: Apache-2.0

import Foundation

extension BreathPattern {
    /// One long phase at a constant level, looping: a steady vibration the controls change.
    public static let steady = BreathPattern(name: "palette", phases: [PhaseSpec(.inhale, 60, from: 1, to: 1)])
}

extension BreathOptions {
    /// The steady vibration's options: full peak, so `intensity` alone sets the level.
    public static func steady(intensity: Double, sharpness: Double? = nil) -> BreathOptions {
        var breath = BreathOptions()
        breath.peak = 1
        breath.strength = intensity
        if let sharpness { breath.sharpness = sharpness }
        return breath
    }

    /// nil when `cycles` of `pattern` (at these options' slowest ramp rate) fit in the longest session (24
    /// hours), else the reason: checked before the plan is laid out (100000 cycles of 120 s would be weeks).
    public func tooLong(cycles: Int, of pattern: BreathPattern) -> String? {
        let slowest = rampBPM.map { 60 / min($0.from, $0.to) } ?? pattern.cycleSeconds
        guard Double(cycles) * slowest > HapticPattern.longestSeconds + 1 else { return nil }
        return "--cycles \(cycles) of \(pattern.name) last \(String(format: "%.1f", Double(cycles) * slowest / 3600)) hours; the longest session is 24 hours"
    }
}
