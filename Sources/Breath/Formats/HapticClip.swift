// A Meta/Lofelt `.haptic` clip (data model version 1): an amplitude envelope with optional emphasis and an
// optional frequency envelope, and the Core Haptics pattern it plays as (HapticMapping's rules).
// SPDX-License-Identifier: Apache-2.0

/// A `.haptic` clip's envelopes, times in seconds and values 0...1, as the files hold them.
///
/// The amplitude envelope is a line through its points; each point may carry an emphasis (a tap). The
/// frequency envelope, when there is one, shapes sharpness. `pattern` is the clip in the model every
/// format plays through: one continuous event over the amplitude envelope, the envelope as the intensity
/// control, the frequency envelope as the sharpness control, and each emphasis a tap of its own strength.
public struct HapticClip: Sendable, Equatable {
    /// A tap on an amplitude point: `amplitude` at least the envelope's there, `frequency` its sharpness.
    public struct Emphasis: Sendable, Equatable {
        public var amplitude: Double
        public var frequency: Double
        public init(amplitude: Double, frequency: Double) {
            self.amplitude = amplitude
            self.frequency = frequency
        }
    }

    /// One point of the amplitude envelope.
    public struct AmplitudePoint: Sendable, Equatable {
        public var time: Double
        public var amplitude: Double
        public var emphasis: Emphasis?
        public init(time: Double, amplitude: Double, emphasis: Emphasis? = nil) {
            self.time = time
            self.amplitude = amplitude
            self.emphasis = emphasis
        }
    }

    /// One point of the frequency envelope.
    public struct FrequencyPoint: Sendable, Equatable {
        public var time: Double
        public var frequency: Double
        public init(time: Double, frequency: Double) {
            self.time = time
            self.frequency = frequency
        }
    }

    public var amplitude: [AmplitudePoint]
    public var frequency: [FrequencyPoint]

    public init(amplitude: [AmplitudePoint], frequency: [FrequencyPoint] = []) {
        self.amplitude = amplitude
        self.frequency = frequency
    }

    /// Seconds until the amplitude envelope's last point (the clip's length, as Meta's SDK defines it).
    public var duration: Double { amplitude.last?.time ?? 0 }

    /// The clip as a Core Haptics pattern, by HapticMapping's rules.
    public var pattern: HapticPattern {
        guard let first = amplitude.first, let last = amplitude.last, last.time > first.time else { return HapticPattern() }
        var events = [HapticEvent(kind: .continuous(duration: last.time - first.time), time: first.time, intensity: 1, sharpness: 0)]
        for p in amplitude {
            guard let e = p.emphasis else { continue }
            events.append(HapticEvent(kind: .transient, time: p.time, intensity: HapticMapping.tapIntensity(emphasisAmplitude: e.amplitude),
                                      sharpness: HapticMapping.tapSharpness(emphasisFrequency: e.frequency), followsControls: false))
        }
        var curves = [ParameterCurve(parameter: .intensityControl, time: first.time, points: amplitude.map {
            ControlPoint(time: $0.time - first.time, value: HapticMapping.intensity(amplitude: $0.amplitude))
        })]
        if let f0 = frequency.first {
            curves.append(ParameterCurve(parameter: .sharpnessControl, time: f0.time, points: frequency.map {
                ControlPoint(time: $0.time - f0.time, value: HapticMapping.sharpness(frequency: $0.frequency))
            }))
        }
        return HapticPattern(events: events, curves: curves)
    }
}
