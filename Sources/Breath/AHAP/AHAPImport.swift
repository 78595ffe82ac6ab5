// Reads AHAP (Apple Haptic and Audio Pattern) JSON the way Core Haptics does: missing keys default,
// out-of-range values clamp, unknown keys are ignored, audio events are skipped (with a notice).
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A pattern file (AHAP or `.haptic`) that cannot be used, with where the problem is: one line.
public struct HapticFileError: Error, Sendable, CustomStringConvertible {
    /// The format the file was read as, as the line names it: "AHAP" or ".haptic".
    public var format = "AHAP"
    public var location: String
    public var reason: String
    public var description: String { "bad \(format) file: \(location): \(reason)" }
}

/// An AHAP file that cannot be used (the name AHAP import has always thrown).
public typealias AHAPError = HapticFileError

/// Reads AHAP (Apple Haptic and Audio Pattern) JSON the way Core Haptics does: missing keys default,
/// out-of-range values clamp, unknown keys are ignored, and audio events are skipped, each with a notice.
/// A file that cannot be used throws an ``AHAPError`` naming where the problem is.
///
///     let file = try AHAPImport(path: "breath.ahap")
///     for notice in file.notices { print(notice) }
///     let pattern = file.pattern
public struct AHAPImport: Sendable {
    /// The haptic events and parameter curves read.
    public var pattern: HapticPattern
    /// Things skipped or adjusted, one line each (audio events, unknown parameters, clamped values).
    public var notices: [String]

    /// Parses AHAP JSON text (UTF-8).
    public init(data: Data) throws(AHAPError) {
        try self.init(utf8: [UInt8](data))
    }

    /// Reads and parses a file of at most `AHAPImport.maxFileBytes`, checked before it is read.
    public init(path: String) throws(AHAPError) {
        try self.init(utf8: try AHAPFile.read(path))
    }

    /// The largest AHAP file read (64 MB: room for 10^6 compact events).
    public static var maxFileBytes: Int { AHAPFile.maxBytes }

    /// Each Pattern entry is read as the parser reaches it and only the event or curve made of it is kept,
    /// so memory is a small multiple of the file, whatever its shape.
    init(utf8 bytes: [UInt8]) throws(AHAPError) {
        var reader = Reader()
        let document: JSONParser.Streamed
        do {
            document = try JSONParser.parse(bytes, streaming: "Pattern") { entry, i in
                try reader.read(entry, at: "Pattern[\(i)]")
            }
        } catch let error as JSONSyntaxError {
            throw AHAPError(location: "line \(error.line), column \(error.column)", reason: "not valid JSON: \(error.reason)")
        } catch let error as AHAPError {
            throw error
        } catch {
            throw AHAPError(location: "top level", reason: "\(error)")
        }
        guard let object = document.top.object else {
            throw AHAPError(location: "top level", reason: "expected a JSON object with a \"Pattern\" array, found \(document.top.summary)")
        }
        if document.streamed {
            if object["Pattern"] != nil { throw AHAPError(location: "top level", reason: "\"Pattern\" appears twice") }
        } else if let other = object["Pattern"] {
            throw AHAPError(location: "Pattern", reason: "expected an array of events and parameters, found \(other.summary)")
        } else {
            throw AHAPError(location: "top level", reason: "no \"Pattern\" array")
        }
        if let (line, column) = document.trailingComma {
            reader.notices.append("line \(line), column \(column): a trailing comma (read, but Core Haptics refuses the file)")
        }
        pattern = HapticPattern(events: reader.events, curves: reader.curves)
        notices = reader.notices
    }
}

/// Walks the Pattern entries.
private struct Reader {
    var events: [HapticEvent] = []
    var curves: [ParameterCurve] = []
    var notices: [String] = []

    mutating func read(_ entry: JSONValue, at path: String) throws(AHAPError) {
        guard let dict = entry.object else {
            throw AHAPError(location: path, reason: "expected an object with Event, Parameter or ParameterCurve")
        }
        if let e = dict["Event"] {
            try readEvent(e, at: path + ".Event")
        } else if let p = dict["Parameter"] {
            try readParameter(p, at: path + ".Parameter")
        } else if let c = dict["ParameterCurve"] {
            try readCurve(c, at: path + ".ParameterCurve")
        } else {
            notices.append("\(path): no Event, Parameter or ParameterCurve; ignored")
        }
    }

    func object(_ value: JSONValue, at path: String) throws(AHAPError) -> [String: JSONValue] {
        guard let d = value.object else { throw AHAPError(location: path, reason: "expected an object") }
        return d
    }

    func number(_ dict: [String: JSONValue], _ key: String, at path: String, default value: Double) throws(AHAPError) -> Double {
        guard let raw = dict[key] else { return value }
        guard let n = raw.number, n.isFinite else {
            throw AHAPError(location: "\(path).\(key)", reason: "expected a number, found \(raw.summary)")
        }
        return n
    }

    mutating func clamped(_ v: Double, _ range: ClosedRange<Double>, at path: String) -> Double {
        let c = min(max(v, range.lowerBound), range.upperBound)
        if c != v { notices.append("\(path): \(v) clamped to \(c)") }
        return c
    }

    /// `key`, or the alias articles use for it (with a notice naming the right key).
    mutating func aliased(_ dict: [String: JSONValue], _ key: String, alias: String, at path: String) -> JSONValue? {
        if let v = dict[key] { return v }
        guard let v = dict[alias] else { return nil }
        notices.append("\(path).\(alias): read as \"\(key)\", the key Core Haptics uses")
        return v
    }

    /// A time in seconds from the pattern start, no later than the longest pattern.
    func within(_ seconds: Double, at path: String) throws(AHAPError) -> Double {
        guard seconds <= HapticPattern.longestSeconds else {
            throw AHAPError(location: path, reason: "\(seconds) s is past the longest pattern, \(Int(HapticPattern.longestSeconds)) s (24 h)")
        }
        return seconds
    }

    mutating func readEvent(_ any: JSONValue, at path: String) throws(AHAPError) {
        let e = try object(any, at: path)
        let typeKey = e["EventType"] == nil && e["Type"] != nil ? "Type" : "EventType"
        guard let type = aliased(e, "EventType", alias: "Type", at: path)?.string else {
            throw AHAPError(location: path + "." + typeKey, reason: "missing or not a string")
        }
        let time = try within(clamped(try number(e, "Time", at: path, default: 0), 0...Double.greatestFiniteMagnitude, at: path + ".Time"),
                              at: path + ".Time")
        var intensity = HapticEvent.defaultIntensity, sharpness = HapticEvent.defaultSharpness
        var attack = 0.0, release = 0.0
        let paramsKey = e["EventParameters"] == nil && e["Parameters"] != nil ? "Parameters" : "EventParameters"
        if let params = aliased(e, "EventParameters", alias: "Parameters", at: path) {
            guard let list = params.array else {
                throw AHAPError(location: path + "." + paramsKey, reason: "expected an array")
            }
            for (k, item) in list.enumerated() {
                let at = "\(path).\(paramsKey)[\(k)]"
                let p = try object(item, at: at)
                guard let id = p["ParameterID"]?.string else {
                    throw AHAPError(location: at + ".ParameterID", reason: "missing or not a string")
                }
                let value = try number(p, "ParameterValue", at: at, default: 0)
                switch id {
                case "HapticIntensity": intensity = clamped(value, 0...1, at: at)
                case "HapticSharpness": sharpness = clamped(value, 0...1, at: at)
                case "AttackTime": attack = clamped(value, 0...Double.greatestFiniteMagnitude, at: at)
                case "ReleaseTime": release = clamped(value, 0...Double.greatestFiniteMagnitude, at: at)
                default: notices.append("\(at): \(id) is not used for the motor; ignored")
                }
            }
        }
        switch type {
        case "HapticTransient":
            events.append(HapticEvent(kind: .transient, time: time, intensity: intensity, sharpness: sharpness))
        case "HapticContinuous":
            let duration = clamped(try number(e, "EventDuration", at: path, default: 0), 0...Double.greatestFiniteMagnitude,
                                   at: path + ".EventDuration")
            _ = try within(time + duration, at: path + ".EventDuration")
            if duration == 0 { notices.append("\(path): continuous event with no EventDuration; ignored") }
            else {
                events.append(HapticEvent(kind: .continuous(duration: duration), time: time, intensity: intensity,
                                          sharpness: sharpness, attack: attack, release: release))
            }
        case "AudioCustom", "AudioContinuous":
            notices.append("\(path): \(type) event skipped (audio plays no haptics)")
        default:
            throw AHAPError(location: path + ".EventType", reason: "unknown event type '\(type)'")
        }
    }

    /// The dynamic parameter an ID names, or nil (with a notice) for ones that do not affect haptics.
    mutating func parameter(_ p: [String: JSONValue], at path: String) throws(AHAPError) -> DynamicParameter? {
        guard let id = p["ParameterID"]?.string else {
            throw AHAPError(location: path + ".ParameterID", reason: "missing or not a string")
        }
        guard let param = DynamicParameter(rawValue: id) else {
            notices.append("\(path): \(id) does not affect the motor; ignored")
            return nil
        }
        return param
    }

    mutating func readParameter(_ any: JSONValue, at path: String) throws(AHAPError) {
        let p = try object(any, at: path)
        guard let param = try parameter(p, at: path) else { return }
        let time = try within(max(0, try number(p, "Time", at: path, default: 0)), at: path + ".Time")
        let value = clamped(try number(p, "ParameterValue", at: path, default: param.neutral), param.range, at: path + ".ParameterValue")
        curves.append(ParameterCurve(parameter: param, time: time, points: [ControlPoint(time: 0, value: value)]))
    }

    mutating func readCurve(_ any: JSONValue, at path: String) throws(AHAPError) {
        let c = try object(any, at: path)
        guard let param = try parameter(c, at: path) else { return }
        let time = try within(max(0, try number(c, "Time", at: path, default: 0)), at: path + ".Time")
        guard let list = c["ParameterCurveControlPoints"]?.array else {
            throw AHAPError(location: path + ".ParameterCurveControlPoints", reason: "missing or not an array")
        }
        var points: [ControlPoint] = []
        for (k, item) in list.enumerated() {
            let at = "\(path).ParameterCurveControlPoints[\(k)]"
            let p = try object(item, at: at)
            let t = max(0, try number(p, "Time", at: at, default: 0))
            _ = try within(time + t, at: at + ".Time")
            let v = clamped(try number(p, "ParameterValue", at: at, default: param.neutral), param.range, at: at + ".ParameterValue")
            var easing = Easing.linear
            if let name = p["Easing"]?.string {
                guard let e = Easing(rawValue: name) else {
                    throw AHAPError(location: at + ".Easing", reason: "unknown easing '\(name)' (\(Easing.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                easing = e
            }
            points.append(ControlPoint(time: t, value: v, easing: easing))
        }
        guard !points.isEmpty else {
            notices.append("\(path): curve without control points; ignored")
            return
        }
        curves.append(ParameterCurve(parameter: param, time: time, points: points))
    }
}
