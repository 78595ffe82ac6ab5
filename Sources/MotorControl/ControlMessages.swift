// The control protocol of `play --control -` and `--control-socket`: one JSON object per line each way.
// Commands in ({"command":"intensity","value":0.5}), events out ({"event":"phase",...}). docs/control.md
// describes every message.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorSession

/// A command from a controlling program, checked and turned into what the session understands.
public enum ControlCommand: Equatable, Sendable {
    case change(BreathChange)
    /// Intensity: a multiplier of the session's strength, 0...1 (like Core Haptics' HapticIntensityControl).
    case intensity(Double)
    /// One board's own intensity when several play in step (`"board"`): a multiplier of its strength on top of
    /// the session's intensity, 0...1.
    case boardIntensity(board: String, value: Double)
    /// Sharpness: an offset added to the session's sharpness, -1...1.
    case sharpness(Double)
    case stop
    /// Answer with the whole current state (a `state` event to the client that asked).
    case state
    /// Answer with the preset patterns (a `patterns` event to the client that asked).
    case patterns
    /// Answer with the host's wall clock now (a `clock` event to the client that asked): a page maps the
    /// events' `unix_ms` to its own clock with it.
    case clock

    /// Parses one line; the error is the one line to send back.
    /// Every command this build takes.
    public static let names = ["intensity", "sharpness", "pace", "pause", "resume", "seek", "finish", "stop", "state",
                               "pattern", "patterns", "clock"]

    /// The client's `id` of a command line (a string or a number), to echo in every event it causes.
    public static func id(in line: String) -> Any? {
        guard let object = jsonObject(line) ?? jsonObject(markingNonFinite(line)), let id = object["id"] else { return nil }
        if let s = id as? String { return s }
        if let n = id as? NSNumber { return n }
        return nil
    }

    /// `cycles`: the session's cycles (nil: it loops); a seek outside them is an error naming the range.
    public static func parse(_ line: String, pattern: BreathPattern, cycles: Int? = nil) throws -> ControlCommand {
        guard let object = jsonObject(line) ?? jsonObject(markingNonFinite(line)), let command = object["command"] as? String else {
            throw ControlError("not a command: expected a JSON object with a \"command\" field, got \(line.prefix(80))")
        }
        func number(_ key: String, _ range: ClosedRange<Double>) throws -> Double {
            guard let v = (object[key] as? NSNumber)?.doubleValue, v.isFinite, range.contains(v) else {
                throw ControlError("\(command): \"\(key)\" must be a finite number in \(text(range.lowerBound))...\(text(range.upperBound))")
            }
            return v
        }
        switch command {
        case "intensity":
            let value = try number("value", 0...1)
            guard let board = object["board"] else { return .intensity(value) }
            guard let name = board as? String, !name.isEmpty else { throw ControlError("intensity: \"board\" must be a board's name (a string)") }
            return .boardIntensity(board: name, value: value)
        case "sharpness": return .sharpness(try number("value", -1...1))
        case "pace": return .change(.pace(breathsPerMinute: try number("bpm", 1...30)))
        case "pause": return .change(.pause)
        case "resume": return .change(.resume)
        case "finish": return .change(.finishAfterThisBreath)
        case "stop": return .stop
        case "state": return .state
        case "patterns": return .patterns
        case "clock": return .clock
        case "pattern": return .change(try parsePattern(object))
        case "seek":
            let value = try number("cycle", 1...100_000)
            guard value == value.rounded() else {
                throw ControlError("seek: \"cycle\" must be a whole number (a cycle, 1 for the first), got \(value)")
            }
            let cycle = Int(value)
            if let cycles, cycle > cycles {
                throw ControlError("seek: \"cycle\" must be in 1...\(cycles) (this session's cycles), got \(cycle)")
            }
            let name = object["phase"] as? String ?? pattern.phases.first!.kind.rawValue
            guard let kind = BreathPhase(rawValue: name), let index = pattern.phases.firstIndex(where: { $0.kind == kind }) else {
                let kinds = pattern.phases.map(\.kind.rawValue)
                throw ControlError("seek: \"phase\" must be one of this pattern's phases: \(kinds.joined(separator: ", "))")
            }
            return .change(.seek(cycle: cycle, phase: index))
        default:
            throw ControlError("unknown command \"\(command)\" (\(ControlCommand.names.joined(separator: ", ")))")
        }
    }
}

extension ControlCommand {
    /// `pattern`: `"pattern"` as `--pattern` takes it (a preset or in-hold-out[-holdout] seconds, with its
    /// checks and reasons), `"at"` `next` (the default: from the next cycle) or `now`.
    static func parsePattern(_ object: [String: Any]) throws -> BreathChange {
        guard let text = object["pattern"] as? String else {
            throw ControlError("pattern: \"pattern\" must be a preset (\(BreathPattern.presets.map(\.name).joined(separator: ", "))) or in-hold-out[-holdout] seconds such as 4-7-8")
        }
        let at = object["at"] as? String ?? (object["at"] == nil ? "next" : "")
        guard at == "next" || at == "now" else { throw ControlError("pattern: \"at\" must be next or now") }
        do {
            return .pattern(try BreathPattern.parse(text), now: at == "now")
        } catch {
            throw ControlError("pattern: \(error.optionLine("\"pattern\""))")
        }
    }
}

private func jsonObject(_ line: String) -> [String: Any]? {
    guard let data = line.data(using: .utf8) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
}

/// `line` with the non-JSON number words NaN, Infinity and -Infinity (which JavaScript and Python's json
/// write) outside strings turned into a string, so the command is read and its value refused by name; so
/// too a number too large for a Double (`1e999`, which JSONSerialization does not read at all).
private func markingNonFinite(_ line: String) -> String {
    var out = ""
    var inString = false, escaped = false
    var i = line.startIndex
    while i < line.endIndex {
        let c = line[i]
        if inString {
            if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
        } else if c == "\"" {
            inString = true
        } else if let word = ["-Infinity", "Infinity", "NaN"].first(where: { line[i...].hasPrefix($0) }) {
            out += "\"\(word)\""
            i = line.index(i, offsetBy: word.count)
            continue
        } else if c == "-" || c.isASCII && c.isNumber {
            // A number: as it is, unless it overflows a Double.
            let end = line[i...].firstIndex { !($0.isASCII && ($0.isNumber || "+-.eE".contains($0))) } ?? line.endIndex
            let token = line[i..<end]
            out += Double(token).map { $0.isInfinite } == true ? "\"\(token)\"" : String(token)
            i = end
            continue
        }
        out.append(c)
        i = line.index(after: i)
    }
    return out
}

/// 1 rather than 1.0 in messages.
private func text(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }

/// What was wrong, as the one line sent back.
public struct ControlError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ text: String) { description = text }
}

/// Events as JSON lines.
public enum ControlEvents {
    /// Every event this build sends (docs/control.md's table lists each).
    public static let names = ["prepared", "state", "phase", "applied", "refused", "error", "dropped", "finished", "patterns", "clock", "file"]

    /// The `patterns` event: every preset, its phases in seconds and its cycle's length.
    public static func patterns(id: Any? = nil) -> String {
        var f: [String: Any] = ["event": "patterns", "patterns": BreathPattern.presets.map { p -> [String: Any] in
            ["name": p.name, "cycle_seconds": p.cycleSeconds,
             "phases": p.phases.map { ["phase": $0.kind.rawValue, "seconds": $0.seconds] as [String: Any] }]
        }]
        if let id { f["id"] = id }
        return line(f)
    }

    public static func line(_ fields: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Wall-clock time of an instant `agoNs` before now (negative: ahead): ISO 8601 with milliseconds,
    /// and Unix milliseconds.
    public static func wallClock(agoNs: Double) -> (iso: String, unixMs: Double) {
        var real = timespec()
        clock_gettime(CLOCK_REALTIME, &real)
        let unixMs = (Double(real.tv_sec) * 1e9 + Double(real.tv_nsec) - agoNs) / 1e6
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return (f.string(from: Date(timeIntervalSince1970: unixMs / 1000)), unixMs)
    }

    public static func describe(_ change: BreathChange) -> [String: Any] {
        switch change {
        case .strength(let s): return ["command": "intensity", "strength": s]
        case .sharpness(let s): return ["command": "sharpness", "sharpness": s]
        case .pace(let bpm): return ["command": "pace", "bpm": bpm]
        case .pause: return ["command": "pause"]
        case .resume: return ["command": "resume"]
        case .seek(let cycle, let phase): return ["command": "seek", "cycle": cycle, "phase_index": phase]
        case .finishAfterThisBreath: return ["command": "finish"]
        case .pattern(let p, let now): return ["command": "pattern", "pattern": p.name, "at": now ? "now" : "next"]
        }
    }

    /// `nowNs` is the session clock's now (the events' host times are on that clock).
    public static func encode(_ event: SessionEvent, nowNs: UInt64) -> String { line(fields(event, nowNs: nowNs)) }

    public static func fields(_ event: SessionEvent, nowNs: UInt64) -> [String: Any] {
        switch event {
        case .phase(let kind, let cycle, let pattern, let frame, let tick, let hostNs):
            let wall = wallClock(agoNs: Double(nowNs) - Double(hostNs))
            return ["event": "phase", "phase": kind.rawValue, "cycle": cycle, "pattern": pattern, "frame": frame, "board_tick": tick,
                    "time": wall.iso, "unix_ms": wall.unixMs]
        case .applied(let change, let frame, let tick, let latency, _):
            var f = describe(change)
            f["event"] = "applied"
            f["frame"] = frame
            f["board_tick"] = tick
            f["latency_ms"] = (latency * 10).rounded() / 10
            return f
        case .refused(let change, let reason):
            var f = describe(change)
            f["event"] = "refused"
            f["reason"] = reason
            return f
        }
    }

    /// `serve` only: an AHAP file the page sent began to play (`playing`, the breath stopped for it) or ended
    /// (`played`, or `stopped` before its end; with its report), before the breath plays again.
    public static func file(name: String, state: String, durationS: Double, report: PlayReport? = nil) -> String {
        var f: [String: Any] = ["event": "file", "name": name, "state": state, "duration_s": (durationS * 1000).rounded() / 1000]
        if let report { f["report"] = reportFields(report) }
        return line(f)
    }

    /// The last event of a session that ended: its report (the same as `--json`).
    public static func finished(_ report: PlayReport) -> String { line(["event": "finished", "report": reportFields(report)]) }

    public static func reportFields(_ report: PlayReport) -> Any {
        guard let data = try? JSONEncoder().encode(report), let object = try? JSONSerialization.jsonObject(with: data) else { return [:] }
        return object
    }

    /// The control protocol's version: a client may rely on every command, event and field of its version;
    /// later builds add commands, events and fields (clients ignore what they do not know) and change the
    /// version only when something a client relies on changes.
    public static let protocolVersion = 1

    /// `prepared` (a line of it) naming `pattern` instead: the greeting of later clients after a change.
    public static func renamingPattern(_ prepared: String, to pattern: String) -> String {
        guard var f = jsonObject(prepared) else { return prepared }
        f["pattern"] = pattern
        return line(f)
    }

    /// The first event: the board is ready; the protocol version and the commands this build takes.
    public static func prepared(_ prepared: Prepared, pattern: String) -> String {
        line(preparedFields(prepared, pattern: pattern))
    }

    /// `prepared` with several boards in step: the first board's fields (its events stand for all) and
    /// `boards`, one object per board in order: `name`, `board`, `motor` and what `place` adds (its place
    /// along the line, strength, offset).
    public static func prepared(_ boards: [(name: String, prepared: Prepared, place: [String: Any])], pattern: String) -> String {
        guard let first = boards.first else { return line(["event": "prepared", "pattern": pattern]) }
        var f = preparedFields(first.prepared, pattern: pattern)
        f["boards"] = boards.map { b -> [String: Any] in
            var o = b.place
            o["name"] = b.name
            o["board"] = b.prepared.info.displayName
            o["motor"] = b.prepared.info.motorKind == .lra ? "LRA" : "ERM"
            return o
        }
        return line(f)
    }

    static func preparedFields(_ prepared: Prepared, pattern: String) -> [String: Any] {
        ["event": "prepared", "board": prepared.info.displayName, "motor": prepared.info.motorKind == .lra ? "LRA" : "ERM",
         "frame_rate": Int(prepared.config.frameRateHz), "pattern": pattern, "protocol": protocolVersion,
         "commands": ControlCommand.names]
    }
}
