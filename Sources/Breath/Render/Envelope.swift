// A pattern compiled for streaming: the strongest continuous event over time, the intensity control over
// time, and the taps with their controls applied. Building it is O(n log n), reading it O(1) per frame.
// SPDX-License-Identifier: Apache-2.0

/// `HapticPattern.continuousIntensity(at:)` and `HapticPattern.taps`, precomputed by sweeping the pattern
/// once: the strongest event (an upper envelope of linear spans) times the intensity control (eased
/// segments), clamped to 0...1. A `Cursor` reads it at increasing times.
public struct Envelope: Sendable {
    let events: UpperEnvelope
    let control: ControlTrack
    public let taps: [Tap]

    public init(_ pattern: HapticPattern) {
        events = UpperEnvelope(events: pattern.events.filter { !$0.isTransient })
        let intensity = ControlTrack(pattern.curves, parameter: .intensityControl)
        control = intensity
        // Taps read both controls at their instant, through the curve in force (as the reference does).
        let sharpness = ControlTrack(pattern.curves, parameter: .sharpnessControl)
        func reader(_ track: ControlTrack) -> (Double) -> Double? {
            var cursor = ControlTrack.Cursor()
            return { t in cursor.segment(at: t, in: track).map { pattern.curves[Int(track.segments[$0].curve)].value(at: t) } }
        }
        let intensityAt = reader(intensity), sharpnessAt = reader(sharpness)
        taps = pattern.events.filter(\.isTransient).map { e in
            // Both readers move with every tap (they read at non-decreasing times), followed or not.
            let scale = intensityAt(e.time) ?? 1, add = sharpnessAt(e.time) ?? 0
            return Tap(time: e.time, intensity: min(max(e.intensity * (e.followsControls ? scale : 1), 0), 1),
                       sharpness: min(max(e.sharpness + (e.followsControls ? add : 0), 0), 1))
        }
    }

    /// Reads the envelope at non-decreasing times.
    public struct Cursor: Sendable {
        let envelope: Envelope
        var events = UpperEnvelope.Cursor()
        var control = ControlTrack.Cursor()

        public init(_ envelope: Envelope) { self.envelope = envelope }

        @inline(__always)
        public mutating func intensity(at t: Double) -> Double {
            guard let strongest = events.value(at: t, in: envelope.events) else { return 0 }
            return min(max(strongest * control.intensity(at: t, in: envelope.control), 0), 1)
        }
    }
}
