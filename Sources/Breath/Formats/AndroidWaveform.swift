// Writes a pattern as Android waveform JSON: `timings` in milliseconds and `amplitudes` 0...255, the two
// arrays `VibrationEffect.createWaveform(timings, amplitudes, -1)` takes, each amplitude held for its timing.
// SPDX-License-Identifier: Apache-2.0

/// A pattern as an Android waveform: steps of constant amplitude. Taps become pulses as long as the
/// reference motor needs to feel them (what `render` intends), the intensity becomes HapticMapping's
/// `androidAmplitude`. A step lasts at least ``minimumStepMs`` unless the intensity jumps, and ends when
/// the amplitude would be a unit off, so a swell is a staircase of small steps.
///
///     let json = AndroidWaveform(plan.haptics, duration: plan.duration).json
public struct AndroidWaveform: Sendable {
    /// Milliseconds each amplitude is held.
    public var timings: [Int]
    /// 0...255 (0 off), one per timing.
    public var amplitudes: [Int]

    /// A step is at least this long unless the amplitude jumps (Android motors smear shorter steps).
    public static let minimumStepMs = 10
    /// An amplitude change this large (out of 255) between milliseconds is a jump: a new step at once.
    public static let jump = 16

    public init(timings: [Int], amplitudes: [Int]) {
        self.timings = timings
        self.amplitudes = amplitudes
    }

    public init(_ pattern: HapticPattern, duration: Double? = nil) {
        var renderer = FrameRenderer(pattern: pattern, duration: duration, frameRate: 1000, compensate: false)
        var timings: [Int] = [], amplitudes: [Int] = []
        var start = 0, sum = 0.0, first = 0, previous = 0, index = 0
        func close() {
            let n = index - start
            guard n > 0 else { return }
            let a = Int((Double(HapticMapping.androidFull) * sum / Double(n)).rounded())
            if amplitudes.last == a { timings[timings.count - 1] += n } else { timings.append(n); amplitudes.append(a) }
            (start, sum) = (index, 0)
        }
        while true {
            let frames = renderer.renderDetailed(count: 16_384)
            if frames.isEmpty { break }
            for f in frames {
                let q = HapticMapping.androidAmplitude(intensity: f.intensity)
                if index > start && (abs(q - previous) >= Self.jump || (abs(q - first) >= 1 && index - start >= Self.minimumStepMs)) { close() }
                if index == start { first = q }
                sum += HapticMapping.amplitude(intensity: f.intensity)
                previous = q
                index += 1
            }
        }
        close()
        self.init(timings: timings, amplitudes: amplitudes)
    }

    /// The intensity the waveform plays at `seconds` (HapticMapping's inverse; 0 after the end).
    public func intensity(at seconds: Double) -> Double {
        var end = 0.0
        for (t, a) in zip(timings, amplitudes) {
            end += Double(t) / 1000
            if seconds < end { return HapticMapping.intensity(androidAmplitude: a) }
        }
        return 0
    }

    /// `{"timings": [...], "amplitudes": [...], "repeat": -1}`, one line per array.
    public var json: String {
        "{\n  \"timings\": [" + timings.map(String.init).joined(separator: ", ") + "],\n  \"amplitudes\": ["
            + amplitudes.map(String.init).joined(separator: ", ") + "],\n  \"repeat\": -1\n}\n"
    }
}
