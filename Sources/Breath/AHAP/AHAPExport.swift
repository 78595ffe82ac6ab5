// Writes a pattern as AHAP JSON that Core Haptics loads: curves longer than its 16 points are chained,
// easing goes in an extra "Easing" key (ignored by Core Haptics, read back by motorbreath).
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Writes a ``HapticPattern`` as AHAP JSON that Core Haptics loads: curves longer than its 16 points are
/// chained, and easing goes in an extra "Easing" key (Core Haptics ignores it, ``AHAPImport`` reads it back).
/// Given the breath's `duration`, a file whose events end earlier (a trailing hold) still lasts that long.
/// The same pattern always gives the same bytes.
///
///     let json = AHAPExport.data(pattern)
///     try json.write(to: URL(fileURLWithPath: "breath.ahap"))
public enum AHAPExport: StreamingPatternWriter {
    /// Core Haptics' limit on control points per curve.
    public static let maxPointsPerCurve = 16

    /// AHAP JSON for `pattern`, keys sorted, so the same pattern always gives the same bytes.
    public static func data(_ pattern: HapticPattern, duration: Double? = nil, description: String = "made by motorbreath") -> Data {
        Data(text(pattern, duration: duration, description: description).utf8)
    }

    /// AHAP JSON for `pattern`, handed to `sink` a piece at a time: one Pattern entry is built, written and
    /// dropped before the next, so a pattern of 10^6 events needs no more memory than one of ten.
    /// `duration`: how long the pattern lasts when that is longer than its events and curves (a breath's
    /// trailing hold-out has no event); the file then ends with a `Parameter` at that time, holding the
    /// intensity control at the value it already has there, so the file lasts as long and plays the same.
    public static func write(_ pattern: HapticPattern, duration: Double? = nil, description: String = "made by motorbreath",
                             to sink: (String) throws -> Void) rethrows {
        typealias V = JSONText.Value
        let metadata = V.object(["Project": .string("motorbreath"), "Description": .string(description)])
        try sink("{\n  \"Metadata\": " + JSONText.write(metadata, indent: "  ") + ",\n  \"Pattern\": ")
        let written = EntryCount()
        /// One Pattern entry as text, after the array's opening or the previous entry's comma.
        func entry(_ v: V) -> String {
            written.count += 1
            return (written.count == 1 ? "[\n    " : ",\n    ") + JSONText.write(v, indent: "    ")
        }
        func param(_ id: String, _ value: Double) -> V { .object(["ParameterID": .string(id), "ParameterValue": .number(value)]) }
        for e in pattern.events {
            let (intensity, sharpness) = followingControls(e, in: pattern)
            var params = [param("HapticIntensity", intensity), param("HapticSharpness", sharpness)]
            if e.attack > 0 { params.append(param("AttackTime", e.attack)) }
            if e.release > 0 { params.append(param("ReleaseTime", e.release)) }
            var event: [String: V] = ["Time": .number(e.time), "EventParameters": .array(params)]
            switch e.kind {
            case .transient: event["EventType"] = .string("HapticTransient")
            case .continuous(let d):
                event["EventType"] = .string("HapticContinuous")
                event["EventDuration"] = .number(d)
            }
            try sink(entry(.object(["Event": .object(event)])))
        }
        for c in pattern.curves {
            if c.points.count == 1 && c.points[0].time == 0 {
                try sink(entry(.object(["Parameter": .object(["ParameterID": .string(c.parameter.rawValue), "Time": .number(c.time),
                                                         "ParameterValue": .number(c.points[0].value)])])))
                continue
            }
            for piece in chained(c) {
                let points: [V] = piece.points.map { p in
                    var d: [String: V] = ["Time": .number(p.time), "ParameterValue": .number(p.value)]
                    if p.easing != .linear { d["Easing"] = .string(p.easing.rawValue) }
                    return .object(d)
                }
                try sink(entry(.object(["ParameterCurve": .object(["ParameterID": .string(c.parameter.rawValue),
                                                              "Time": .number(piece.time),
                                                              "ParameterCurveControlPoints": .array(points)])])))
            }
        }
        if let duration, duration > pattern.duration {
            let value = pattern.control(.intensityControl, at: duration)
            try sink(entry(.object(["Parameter": .object(["ParameterID": .string(DynamicParameter.intensityControl.rawValue),
                                                         "Time": .number(duration), "ParameterValue": .number(value)])])))
        }
        try sink((written.count == 0 ? "[]" : "\n  ]") + ",\n  \"Version\": " + JSONText.write(.number(1)) + "\n}\n")
    }

    /// The intensity and sharpness to write for `e`. Core Haptics applies the controls to every tap, so a tap
    /// that does not follow them (a `.haptic` emphasis) is written divided by the intensity control and less
    /// the sharpness control at its instant, and plays as it did; where the control is 0 the tap is silent.
    static func followingControls(_ e: HapticEvent, in pattern: HapticPattern) -> (intensity: Double, sharpness: Double) {
        guard e.isTransient && !e.followsControls else { return (e.intensity, e.sharpness) }
        let scale = pattern.control(.intensityControl, at: e.time)
        let intensity = scale > 0 ? min(1, e.intensity / scale) : 0
        let sharpness = min(max(e.sharpness - pattern.control(.sharpnessControl, at: e.time), 0), 1)
        return (intensity, sharpness)
    }

    /// Splits a curve into consecutive curves of at most 16 points; each starts at its predecessor's
    /// last point, so the value never jumps.
    static func chained(_ c: ParameterCurve) -> [ParameterCurve] {
        guard c.points.count > maxPointsPerCurve else { return [c] }
        var out: [ParameterCurve] = []
        var start = 0
        while start < c.points.count - 1 {
            let end = min(start + maxPointsPerCurve - 1, c.points.count - 1)
            let origin = start == 0 ? 0 : c.points[start].time  // the first piece keeps the curve's start
            let points = c.points[start...end].map { ControlPoint(time: $0.time - origin, value: $0.value, easing: $0.easing) }
            out.append(ParameterCurve(parameter: c.parameter, time: c.time + origin, points: points))
            start = end
        }
        return out
    }
}

/// How many Pattern entries `AHAPExport.write` has written (an empty pattern closes its array as `[]`).
private final class EntryCount {
    var count = 0
}
