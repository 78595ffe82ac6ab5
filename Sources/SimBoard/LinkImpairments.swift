// What the simulated link does to bytes: a USB-serial adapter model, latency, jitter, corruption, loss,
// duplication, garbage bursts; parsed from --sim-link text.
// SPDX-License-Identifier: Apache-2.0

/// Impairments of a simulated serial link, per direction.
public struct LinkImpairments: Sendable, Equatable {
    public var latencyNs: UInt64 = 0
    /// Each chunk's delay is latency ± up to this much (uniform); bytes never overtake each other.
    public var jitterNs: UInt64 = 0
    /// Probability that a byte has one bit flipped.
    public var corruptPerByte = 0.0
    /// Probability that a byte is lost.
    public var dropPerByte = 0.0
    /// Probability that a byte arrives twice (a flaky USB bridge re-sending).
    public var duplicatePerByte = 0.0
    /// Probability that a chunk is preceded by a burst of 1-32 random bytes (line noise, a glitching cable).
    public var burstPerChunk = 0.0
    /// Board clock error (the board is not part of the link, but the options live here for the CLI).
    public var driftPPM = 0.0
    /// How fast the board clock's error changes, ppm per minute (an RC oscillator warming up).
    public var wanderPPMPerMinute = 0.0
    /// The board clock's nominal rate (nil: the board's default, 1 MHz).
    public var clockHz: UInt32?
    /// The USB-serial adapter the link is (nil: the symmetric latency ± jitter link alone). With a model,
    /// latency and jitter add to each of its packets (the host's USB stack), and the other settings apply too.
    public var model: LinkModel?

    public init() {}

    /// Parses "latency=16ms,jitter=8ms,drift=500ppm,wander=100ppm,clock=32768hz,corrupt=0.01,drop=0.001,dup=0.001,burst=0.01",
    /// and an adapter model by name with its settings: "ftdi", "ftdi-1ms", "ftdi,timer=1ms", "ch340,baud=1000000",
    /// "cp2102", "cdc", "ftdi,drop=0.001".
    public static func parse(_ text: String) throws(ImpairmentError) -> LinkImpairments {
        var l = LinkImpairments()
        var timerNs: UInt64?, baud: Int?
        for item in text.split(separator: ",") where !item.isEmpty {
            let kv = item.split(separator: "=", maxSplits: 1).map { String($0.filter { $0 != " " }) }
            if kv.count == 1, let model = LinkModel.named(kv[0]) {
                guard l.model == nil else { throw ImpairmentError(text: kv[0], reason: "only one link model (\(LinkModel.names.joined(separator: ", ")))") }
                l.model = model
                continue
            }
            guard kv.count == 2 else {
                throw ImpairmentError(text: String(item), reason: "expected key=value or a link model (\(LinkModel.names.joined(separator: ", ")))")
            }
            let (key, value) = (kv[0], kv[1])
            switch key {
            case "timer":
                let t = try duration(value, key)
                guard t % 1_000_000 == 0, (1_000_000...255_000_000).contains(t) else {
                    throw ImpairmentError(text: value, reason: "timer is FTDI's latency timer, whole milliseconds 1ms...255ms")
                }
                timerNs = t
            case "baud":
                guard let v = Int(value), (300...12_000_000).contains(v) else {
                    throw ImpairmentError(text: value, reason: "baud is the UART's rate behind the adapter, 300...12000000")
                }
                baud = v
            case "latency": l.latencyNs = try duration(value, key)
            case "jitter": l.jitterNs = try duration(value, key)
            case "drift":
                guard let v = Double(value.hasSuffix("ppm") ? String(value.dropLast(3)) : value), abs(v) <= 50_000 else {
                    throw ImpairmentError(text: value, reason: "drift is parts per million, e.g. 500ppm (-50000...50000, i.e. +-5 %)")
                }
                l.driftPPM = v
            case "wander":
                let number = value.hasSuffix("ppm/min") ? String(value.dropLast(7)) : value.hasSuffix("ppm") ? String(value.dropLast(3)) : value
                guard let v = Double(number), abs(v) <= 1000 else {
                    throw ImpairmentError(text: value, reason: "wander is the drift's change in ppm per minute, e.g. 100ppm (-1000...1000)")
                }
                l.wanderPPMPerMinute = v
            case "clock":
                let number = value.lowercased().hasSuffix("hz") ? String(value.dropLast(2)) : value
                guard let v = UInt32(number), (32_768...1_000_000_000).contains(v) else {
                    throw ImpairmentError(text: value, reason: "clock is the board clock rate, e.g. 32768hz (32768...1000000000)")
                }
                l.clockHz = v
            case "corrupt", "drop", "dup", "burst":
                guard let v = Double(value), (0...0.5).contains(v) else {
                    throw ImpairmentError(text: value, reason: "\(key) is a probability per \(key == "burst" ? "chunk" : "byte"), 0...0.5")
                }
                switch key {
                case "corrupt": l.corruptPerByte = v
                case "drop": l.dropPerByte = v
                case "dup": l.duplicatePerByte = v
                default: l.burstPerChunk = v
                }
            default:
                throw ImpairmentError(text: key, reason: "unknown setting (latency, jitter, drift, wander, clock, corrupt, drop, dup, burst; or a link model: \(LinkModel.names.joined(separator: ", ")), with timer= and baud=)")
            }
        }
        if let timerNs {
            guard l.model?.kind == .ftdi else { throw ImpairmentError(text: text, reason: "timer= is FTDI's latency timer: it needs the ftdi model") }
            l.model?.holdNs = timerNs
        }
        if let baud {
            guard l.model != nil else { throw ImpairmentError(text: text, reason: "baud= needs a link model (\(LinkModel.names.joined(separator: ", ")))") }
            l.model?.baud = baud
        }
        guard l.jitterNs <= l.latencyNs else {
            throw ImpairmentError(text: text, reason: "jitter cannot exceed latency")
        }
        return l
    }

    static func duration(_ text: String, _ key: String) throws(ImpairmentError) -> UInt64 {
        let units: [(String, Double)] = [("us", 1e3), ("ms", 1e6), ("s", 1e9)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            if let v = Double(text.dropLast(suffix.count)), v >= 0, v * scale <= 10e9 { return UInt64(v * scale) }
        }
        throw ImpairmentError(text: text, reason: "\(key) is a duration such as 16ms, 500us or 0.1s (at most 10 s)")
    }
}

/// A `--sim-link` text that cannot be parsed: the offending text and what was expected, as one line.
public struct ImpairmentError: Error, Sendable, CustomStringConvertible {
    /// The offending text and what it should have been.
    public var text: String
    public var reason: String
    public var description: String { "bad --sim-link '\(text)': \(reason)" }
}
