// Writes a pattern as a Meta/Lofelt `.haptic` clip (data model 1.0.0): the continuous intensity as the
// amplitude envelope, each tap as an emphasis, continuous sharpness as the frequency envelope.
// SPDX-License-Identifier: Apache-2.0

/// Writes a ``HapticPattern`` as `.haptic` JSON that Meta Haptics Studio and Nice Vibrations load, by
/// HapticMapping's rules, inverted: `HapticClipImport` reads it back to the same intensity within
/// ``IntensityTrace/tolerance`` and the same taps. Keys sorted: the same pattern always gives the same bytes.
///
///     let text = HapticClipExport.text(plan.haptics, duration: plan.duration)
public enum HapticClipExport: StreamingPatternWriter {
    /// The clip for `pattern`, lasting `duration` when that is longer than the pattern (a trailing hold).
    public static func clip(_ pattern: HapticPattern, duration: Double? = nil) -> HapticClip {
        let trace = IntensityTrace(pattern, duration: duration).points
        // The strongest tap at each instant (an emphasis belongs to one point); the trace has a point there.
        var taps: [Double: Tap] = [:]
        for tap in Envelope(pattern).taps where tap.intensity > (taps[tap.time]?.intensity ?? -1) { taps[tap.time] = tap }
        var amplitude: [HapticClip.AmplitudePoint] = []
        amplitude.reserveCapacity(trace.count)
        for (k, p) in trace.enumerated() {
            let a = HapticMapping.amplitude(intensity: p.intensity)
            var point = HapticClip.AmplitudePoint(time: p.time, amplitude: a)
            // On a jump, the emphasis goes on the later of the two points.
            let last = k + 1 == trace.count || trace[k + 1].time != p.time
            if last, let tap = taps[p.time], tap.intensity > 0 {
                point.emphasis = HapticClip.Emphasis(amplitude: max(a, HapticMapping.amplitude(intensity: tap.intensity)), frequency: tap.sharpness)
            }
            amplitude.append(point)
        }
        return HapticClip(amplitude: amplitude, frequency: frequency(pattern, at: amplitude.map(\.time)))
    }

    /// The continuous sharpness (the strongest sounding event's, plus the sharpness control) at `times`,
    /// as frequency points: one where it changes, and the last.
    static func frequency(_ pattern: HapticPattern, at times: [Double]) -> [HapticClip.FrequencyPoint] {
        let continuous = pattern.events.filter { !$0.isTransient }
        let track = ControlTrack(pattern.curves, parameter: .sharpnessControl)
        var cursor = ControlTrack.Cursor()
        var next = 0
        var active: [HapticEvent] = []
        var out: [HapticClip.FrequencyPoint] = []
        for t in times {
            while next < continuous.count && continuous[next].time <= t { active.append(continuous[next]); next += 1 }
            active.removeAll { $0.endTime <= t }
            let strongest = active.max { $0.intensity * $0.envelope(at: t) < $1.intensity * $1.envelope(at: t) }
            let control = cursor.segment(at: t, in: track).map { pattern.curves[Int(track.segments[$0].curve)].value(at: t) } ?? 0
            let f = HapticMapping.frequency(sharpness: min(max((strongest?.sharpness ?? 0) + control, 0), 1))
            if out.last?.frequency != f { out.append(HapticClip.FrequencyPoint(time: t, frequency: f)) }
        }
        if let t = times.last, let f = out.last, f.time != t { out.append(HapticClip.FrequencyPoint(time: t, frequency: f.frequency)) }
        return out
    }

    /// `.haptic` JSON for `pattern`, handed to `sink` a point at a time.
    public static func write(_ pattern: HapticPattern, duration: Double? = nil, description: String = "made by motorbreath",
                             to sink: (String) throws -> Void) rethrows {
        typealias V = JSONText.Value
        let c = clip(pattern, duration: duration)
        let metadata = V.object(["editor": .string("motorbreath"), "author": .string(""), "source": .string(""), "project": .string(""),
                                 "tags": .array([]), "description": .string(description)])
        let version = V.object(["major": .number(1), "minor": .number(0), "patch": .number(0)])
        try sink("{\n  \"metadata\": " + JSONText.write(metadata, indent: "  ") + ",\n  \"signals\": {\n    \"continuous\": {\n      \"envelopes\": {\n")
        let indent = "          "
        try sink("        \"amplitude\": [")
        for (k, p) in c.amplitude.enumerated() {
            var point: [String: V] = ["time": .number(p.time), "amplitude": .number(p.amplitude)]
            if let e = p.emphasis { point["emphasis"] = .object(["amplitude": .number(e.amplitude), "frequency": .number(e.frequency)]) }
            try sink((k == 0 ? "\n" : ",\n") + indent + JSONText.write(.object(point), indent: indent))
        }
        try sink("\n        ],\n        \"frequency\": [")
        for (k, p) in c.frequency.enumerated() {
            try sink((k == 0 ? "\n" : ",\n") + indent + JSONText.write(.object(["time": .number(p.time), "frequency": .number(p.frequency)]), indent: indent))
        }
        try sink((c.frequency.isEmpty ? "" : "\n        ") + "]\n      }\n    }\n  },\n  \"version\": " + JSONText.write(version, indent: "  ") + "\n}\n")
    }
}
