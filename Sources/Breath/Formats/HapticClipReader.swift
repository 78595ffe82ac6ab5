// The checks on a `.haptic` document, point by point as the parser streams the envelopes, then the whole:
// the version, the shape around the envelopes, and the rules Meta's SDK validator applies.
// SPDX-License-Identifier: Apache-2.0

/// Builds a ``HapticClip`` from streamed envelope points and the rest of the document.
struct HapticClipReader {
    static let format = ".haptic"
    static let amplitudePath = ["signals", "continuous", "envelopes", "amplitude"]
    static let frequencyPath = ["signals", "continuous", "envelopes", "frequency"]

    var amplitude: [HapticClip.AmplitudePoint] = []
    var frequency: [HapticClip.FrequencyPoint] = []
    var notices: [String] = []

    static func failure(_ location: String, _ reason: String) -> HapticFileError {
        HapticFileError(format: format, location: location, reason: reason)
    }

    /// One envelope point, checked as it arrives: an object with a time in order and values 0...1.
    mutating func read(_ value: JSONValue, at k: Int, in path: [String]) throws(HapticFileError) {
        let isAmplitude = path == Self.amplitudePath
        let at = "\(path.joined(separator: "."))[\(k)]"
        guard let point = value.object else { throw Self.failure(at, "expected an object with \"time\" and \"\(path.last!)\", found \(value.summary)") }
        let time = try Self.number(point, "time", at: at, range: 0...HapticPattern.longestSeconds, unit: "s",
                                   rangeText: "0...\(Int(HapticPattern.longestSeconds)) s (24 h)")
        let previous = isAmplitude ? amplitude.last?.time : frequency.last?.time
        if let previous, time < previous {
            throw Self.failure(at + ".time", "\(time) s is before the point before it (\(previous) s): times must not go back")
        }
        if isAmplitude {
            let a = try Self.number(point, "amplitude", at: at)
            var emphasis: HapticClip.Emphasis?
            if let raw = point["emphasis"] {
                let e = "\(at).emphasis"
                guard let object = raw.object else { throw Self.failure(e, "expected an object with \"amplitude\" and \"frequency\", found \(raw.summary)") }
                let ea = try Self.number(object, "amplitude", at: e), ef = try Self.number(object, "frequency", at: e)
                guard ea >= a else { throw Self.failure(e + ".amplitude", "\(ea) is below the envelope's \(a) there: an emphasis stands out") }
                emphasis = HapticClip.Emphasis(amplitude: ea, frequency: ef)
            }
            amplitude.append(HapticClip.AmplitudePoint(time: time, amplitude: a, emphasis: emphasis))
        } else {
            frequency.append(HapticClip.FrequencyPoint(time: time, frequency: try Self.number(point, "frequency", at: at)))
        }
    }

    /// A required number within `range`.
    static func number(_ object: [String: JSONValue], _ key: String, at path: String, range: ClosedRange<Double> = 0...1,
                       unit: String = "", rangeText: String = "0...1") throws(HapticFileError) -> Double {
        guard let raw = object[key] else { throw failure(path, "no \"\(key)\"") }
        guard let n = raw.number, n.isFinite else { throw failure("\(path).\(key)", "expected a number, found \(raw.summary)") }
        guard range.contains(n) else { throw failure("\(path).\(key)", "\(n)\(unit.isEmpty ? "" : " " + unit) is outside \(rangeText)") }
        return n
    }

    /// The clip, once the whole document is read: the version, the shape, and the envelope rules.
    mutating func finish(_ document: JSONParser.PathStreamed) throws(HapticFileError) -> HapticClip {
        guard let top = document.top.object else {
            throw Self.failure("top level", "expected a JSON object with \"version\" and \"signals\", found \(document.top.summary)")
        }
        try Self.checkVersion(top["version"])
        if let metadata = top["metadata"], metadata.object == nil {
            throw Self.failure("metadata", "expected an object, found \(metadata.summary)")
        }
        try checkShape(top, streamed: document.streamed)
        if let (line, column) = document.trailingComma {
            notices.append("line \(line), column \(column): a trailing comma (read, but Meta's SDK refuses the file)")
        }
        let envelope = "signals.continuous.envelopes.amplitude"
        guard amplitude.count >= 2, let first = amplitude.first, let last = amplitude.last else {
            throw Self.failure(envelope, "\(amplitude.count) point\(amplitude.count == 1 ? "" : "s"); the amplitude envelope needs at least two")
        }
        guard last.time > first.time else {
            throw Self.failure(envelope, "every point is at \(first.time) s: the clip lasts no time")
        }
        let outside = frequency.filter { $0.time < first.time || $0.time > last.time }
        if !outside.isEmpty {
            notices.append("signals.continuous.envelopes.frequency: \(outside.count) point\(outside.count == 1 ? "" : "s") outside the amplitude envelope (\(first.time)...\(last.time) s), the first at \(outside[0].time) s; ignored")
            frequency.removeAll { $0.time < first.time || $0.time > last.time }
        }
        return HapticClip(amplitude: amplitude, frequency: frequency)
    }

    /// `{"major": 1, "minor": m, "patch": p}`, whole numbers; major 1 only.
    static func checkVersion(_ raw: JSONValue?) throws(HapticFileError) {
        guard let raw else { throw failure("top level", "no \"version\" (a .haptic file says {\"major\": 1, \"minor\": 0, \"patch\": 0})") }
        guard let v = raw.object else { throw failure("version", "expected an object with major, minor and patch, found \(raw.summary)") }
        var parts: [Int] = []
        for key in ["major", "minor", "patch"] {
            guard let n = v[key]?.number, n >= 0, n <= 1e6, n == n.rounded() else {
                throw failure("version.\(key)", "expected a whole number, found \(v[key]?.summary ?? "nothing")")
            }
            parts.append(Int(n))
        }
        guard parts[0] == HapticClipImport.majorVersion else {
            throw failure("version", "\(parts.map(String.init).joined(separator: ".")) is not one motorbreath reads (version \(HapticClipImport.majorVersion).x)")
        }
    }

    /// `signals.continuous.envelopes` with an amplitude array, each step an object; a second array at a
    /// streamed path (kept in the document) is refused.
    func checkShape(_ top: [String: JSONValue], streamed: Set<[String]>) throws(HapticFileError) {
        var here: [String: JSONValue] = top
        var path: [String] = []
        for key in Self.amplitudePath.dropLast() {
            path.append(key)
            guard let next = here[key] else {
                throw Self.failure(path.count == 1 ? "top level" : path.dropLast().joined(separator: "."), "no \"\(key)\"")
            }
            guard let object = next.object else { throw Self.failure(path.joined(separator: "."), "expected an object, found \(next.summary)") }
            here = object
        }
        for key in ["amplitude", "frequency"] {
            let name = "signals.continuous.envelopes.\(key)"
            if let value = here[key] {
                let reason = streamed.contains(path + [key]) ? "appears twice" : "expected an array of points, found \(value.summary)"
                throw Self.failure(name, reason)
            }
        }
        guard streamed.contains(Self.amplitudePath) else { throw Self.failure("signals.continuous.envelopes", "no \"amplitude\" array") }
    }
}
