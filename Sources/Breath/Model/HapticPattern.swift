// A pattern: events plus parameter curves, evaluated with Core Haptics semantics (reference, by instant).
// SPDX-License-Identifier: Apache-2.0

/// Events and curves. `intensity(at:)` is the direct, unoptimised reading of the semantics; the renderer's
/// compiled `Envelope` must agree with it (tests check that).
public struct HapticPattern: Sendable, Equatable {
    public var events: [HapticEvent]
    public var curves: [ParameterCurve]

    public init(events: [HapticEvent] = [], curves: [ParameterCurve] = []) {
        self.events = events.sorted { $0.time < $1.time }
        self.curves = curves.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element)
    }

    /// The longest pattern motorbreath plays or renders: 24 hours. Longer ones are refused where they are
    /// read (AHAP files, command-line sessions); the renderer stops there whatever it is given.
    public static let longestSeconds = 86_400.0

    /// Seconds until the last event (or curve point) ends. A tap's felt length depends on the motor: the
    /// renderer adds it (`FrameRenderer.duration`).
    public var duration: Double {
        max(events.map(\.endTime).max() ?? 0, curves.map(\.endTime).max() ?? 0)
    }

    /// The value of a dynamic parameter at `t`: the curve of that parameter whose first control point is the
    /// latest at or before t decides (for equal starts, the later one in the pattern); neutral before any.
    public func control(_ parameter: DynamicParameter, at t: Double) -> Double {
        var active: ParameterCurve?
        for c in curves where c.parameter == parameter && c.start <= t { active = c }
        return active?.value(at: t) ?? parameter.neutral
    }

    /// Intensity of the continuous events at `t`: the strongest active event's intensity x envelope,
    /// multiplied by the intensity control, clamped to 0...1.
    public func continuousIntensity(at t: Double) -> Double {
        var strongest = 0.0
        for e in events where !e.isTransient && e.time <= t && t < e.endTime {
            strongest = max(strongest, e.intensity * e.envelope(at: t))
        }
        return min(max(strongest * control(.intensityControl, at: t), 0), 1)
    }

    /// Transient taps with their effective intensity and sharpness (controls applied at their instant, to the
    /// taps that follow them).
    public var taps: [Tap] {
        events.filter(\.isTransient).map { e in
            let (scale, add) = e.followsControls ? (control(.intensityControl, at: e.time), control(.sharpnessControl, at: e.time)) : (1, 0)
            return Tap(time: e.time, intensity: min(max(e.intensity * scale, 0), 1), sharpness: min(max(e.sharpness + add, 0), 1))
        }
    }
}

/// A transient as the renderer sees it.
public struct Tap: Sendable, Equatable {
    public var time: Double
    public var intensity: Double
    public var sharpness: Double

    public init(time: Double, intensity: Double, sharpness: Double) {
        self.time = time
        self.intensity = intensity
        self.sharpness = sharpness
    }
}
