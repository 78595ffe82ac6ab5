// Writes a pattern as MPEG-I haptics `.hjif` JSON (ISO/IEC 23090-31, Main profile, timescale 48 000): one
// Vibrotactile perception, one channel, a VectorialWave band for the continuous intensity and a
// Transient band for the taps.
// SPDX-License-Identifier: Apache-2.0

/// Writes a ``HapticPattern`` as `.hjif` JSON with every field the reference software's loader requires, by
/// HapticMapping's rules: the continuous intensity as the keyframes of one VectorialWave effect (the line of
/// ``IntensityTrace``, amplitude = intensity^2, frequency from sharpness), each tap one Transient effect. The
/// timescale is 48 000 ticks a second, the finest the Main profile allows: a tap or a jump is written at the
/// tick at or before it, within 20.8 µs and in the same frame at 250, 500 or 1000 Hz (1000 ticks a second,
/// the Simple Parametric profile's only timescale, moved taps by up to half a millisecond). `HJIFImport`
/// reads it back within ``IntensityTrace/tolerance``.
///
///     let text = HJIFExport.text(plan.haptics, duration: plan.duration)
public enum HJIFExport: StreamingPatternWriter {
    /// Ticks a second written.
    public static let timescale = 48_000

    /// One keyframe on one line: whole ticks and Hz (the reference reads them as integers), the amplitude in
    /// the shortest form that reads back to the same Double.
    static func keyframe(_ ticks: Int, _ amplitude: Double, _ hz: Int) -> String {
        "{\"relative_position\": \(ticks), \"amplitude_modulation\": \(amplitude), \"frequency_modulation\": \(hz)}"
    }

    /// `.hjif` JSON for `pattern`, handed to `sink` a keyframe at a time.
    public static func write(_ pattern: HapticPattern, duration: Double? = nil, description: String = "made by motorbreath",
                             to sink: (String) throws -> Void) rethrows {
        let trace = IntensityTrace(pattern, duration: duration).points
        let sharpness = HapticClipExport.frequency(pattern, at: trace.map(\.time))
        // Down to the tick at or before (a time within float noise of a tick is that tick): every frame rate
        // that divides 48 000 (250, 500, 1000 Hz) has its frame starts on ticks, so a tap or a jump stays in
        // its frame.
        func ticks(_ seconds: Double) -> Double {
            let x = seconds * Double(timescale), nearest = x.rounded()
            return abs(x - nearest) < 1e-6 ? nearest : x.rounded(.down)
        }
        try sink("{\n  \"version\": \"2023\",\n  \"profile\": \"Main\",\n  \"level\": 1,\n  \"date\": \"2026-01-01\",\n")
        try sink("  \"description\": " + JSONText.write(.string(description)) + ",\n  \"timescale\": \(timescale),\n")
        try sink("  \"avatars\": [{\"id\": 1, \"lod\": 0, \"type\": \"Vibration\"}],\n  \"syncs\": [],\n")
        try sink("  \"perceptions\": [{\"id\": 0, \"avatar_id\": 1, \"description\": \"motorbreath\", \"perception_modality\": \"Vibrotactile\", \"effect_library\": [],\n")
        try sink("    \"channels\": [{\"id\": 0, \"description\": \"motor\", \"gain\": 1, \"mixing_coefficient\": 1, \"body_part_mask\": 0,\n      \"bands\": [\n")
        let limits = "\"lower_frequency_limit\": \(Int(HapticMapping.mpegFrequencies.lowerBound)), \"upper_frequency_limit\": \(Int(HapticMapping.mpegFrequencies.upperBound))"
        try sink("        {\"band_type\": \"VectorialWave\", \(limits),\n         \"effects\": [{\"effect_type\": \"Basis\", \"position\": 0, \"phase\": 0, \"base_signal\": \"Sine\", \"keyframes\": [")
        var f = 0
        for (k, p) in trace.enumerated() {
            while f + 1 < sharpness.count && sharpness[f + 1].time <= p.time { f += 1 }
            let s = sharpness.isEmpty ? 0 : HapticMapping.sharpness(frequency: sharpness[f].frequency)
            let key = keyframe(Int(ticks(p.time)), HapticMapping.amplitude(intensity: p.intensity), HapticMapping.mpegFrequency(sharpness: s))
            try sink((k == 0 ? "\n" : ",\n") + "           " + key)
        }
        try sink("\n         ]}]}")
        // The strongest tap at each instant, as .haptic export writes them.
        var taps: [Double: Tap] = [:]
        for tap in Envelope(pattern).taps where tap.intensity > (taps[tap.time]?.intensity ?? -1) { taps[tap.time] = tap }
        let sorted = taps.values.filter { $0.intensity > 0 }.sorted { $0.time < $1.time }
        if !sorted.isEmpty {
            try sink(",\n        {\"band_type\": \"Transient\", \(limits),\n         \"effects\": [")
            for (k, tap) in sorted.enumerated() {
                let key = keyframe(0, HapticMapping.amplitude(intensity: tap.intensity), HapticMapping.mpegFrequency(sharpness: tap.sharpness))
                try sink((k == 0 ? "\n" : ",\n") + "          {\"effect_type\": \"Basis\", \"position\": \(Int(ticks(tap.time))), \"phase\": 0, \"base_signal\": \"Sine\", \"keyframes\": [" + key + "]}")
            }
            try sink("\n         ]}")
        }
        try sink("\n      ]}]}]\n}\n")
    }
}
