// The rules between the formats motorbreath reads and writes, written once: Core Haptics intensity and
// sharpness (the model every pattern is held in), Meta/Lofelt `.haptic` amplitude, frequency and emphasis,
// Android `VibrationEffect` waveform amplitudes, and MPEG-I haptics (`.hjif`) amplitudes and frequencies.
// docs/formats.md gives the same rules and their sources.
// SPDX-License-Identifier: Apache-2.0

/// How a value of one haptics format becomes one of another, each rule in one place, with its source.
///
/// Core Haptics intensity is perceptual: the drive amplitude grows as its square. Meta's haptics SDK
/// (the MIT-licensed `datamodel` crate behind Haptics Studio and Nice Vibrations) converts a `.haptic`
/// clip to AHAP with `intensity = sqrt(amplitude)` and `sharpness = sqrt(frequency)` for the envelopes,
/// and an emphasis to a transient of intensity `sqrt(emphasis.amplitude)` and sharpness
/// `emphasis.frequency` as it is. motorbreath reads and writes `.haptic` with those rules, so a clip
/// plays as Meta's own conversion plays it, and writes the inverse. Android's `createWaveform` takes a
/// linear amplitude 0...255 (0 is off): `255 x amplitude`, the same amplitude a `.haptic` clip holds.
/// MPEG-I haptics keyframes hold a linear amplitude 0...1 too (the synthesized sine's), read and written by
/// the same square rule, and a frequency in Hz: sharpness 0...1 is 65...300 Hz, the reference encoder's.
public enum HapticMapping {
    /// Core Haptics intensity of a `.haptic` amplitude (0...1).
    public static func intensity(amplitude: Double) -> Double { clamp(amplitude).squareRoot() }
    /// The `.haptic` amplitude that plays as `intensity`.
    public static func amplitude(intensity: Double) -> Double { clamp(intensity) * clamp(intensity) }

    /// The sharpness control a `.haptic` frequency envelope value (0...1) sets.
    public static func sharpness(frequency: Double) -> Double { clamp(frequency).squareRoot() }
    /// The `.haptic` frequency envelope value for a continuous `sharpness`.
    public static func frequency(sharpness: Double) -> Double { clamp(sharpness) * clamp(sharpness) }

    /// A tap's intensity for an emphasis amplitude (the amplitude rule).
    public static func tapIntensity(emphasisAmplitude: Double) -> Double { intensity(amplitude: emphasisAmplitude) }
    /// A tap's sharpness for an emphasis frequency: the same number (Meta's conversion takes it as it is).
    public static func tapSharpness(emphasisFrequency: Double) -> Double { clamp(emphasisFrequency) }

    /// The highest Android waveform amplitude (`VibrationEffect.createWaveform` takes 0...255, 0 off).
    public static let androidFull = 255

    /// Android waveform amplitude for an intensity: 255 x the `.haptic` amplitude, rounded.
    public static func androidAmplitude(intensity: Double) -> Int {
        Int((Double(androidFull) * amplitude(intensity: intensity)).rounded())
    }

    /// The intensity an Android waveform amplitude plays as (the inverse, for reading a waveform back).
    public static func intensity(androidAmplitude: Int) -> Double {
        intensity(amplitude: Double(min(max(androidAmplitude, 0), androidFull)) / Double(androidFull))
    }

    /// MPEG-I haptics (`.hjif`) frequencies that sharpness 0...1 spans, in Hz: the ISO/IEC 23090-31 reference
    /// software's AHAP encoder maps sharpness linearly onto 65...300 Hz.
    public static let mpegFrequencies = 65.0...300.0

    /// The `.hjif` keyframe frequency (whole Hz, as the reference reads it) for a sharpness.
    public static func mpegFrequency(sharpness: Double) -> Int {
        Int((mpegFrequencies.lowerBound + clamp(sharpness) * (mpegFrequencies.upperBound - mpegFrequencies.lowerBound)).rounded())
    }

    /// The sharpness a `.hjif` frequency plays as (the inverse, clamped: below 65 Hz is 0, above 300 Hz 1).
    public static func sharpness(mpegFrequency hz: Double) -> Double {
        clamp((hz - mpegFrequencies.lowerBound) / (mpegFrequencies.upperBound - mpegFrequencies.lowerBound))
    }

    static func clamp(_ x: Double) -> Double { x.isNaN ? 0 : min(max(x, 0), 1) }
}
