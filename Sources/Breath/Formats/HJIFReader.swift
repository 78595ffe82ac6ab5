// The checks on an MPEG-I haptics `.hjif` document as the parser walks it (perceptions -> channels ->
// bands -> effects -> keyframes): each keyframe checked and kept compactly in ticks, each level's content
// settled when its object closes (its band type, gain and modality are only known then), the rest dropped
// with a count.
// SPDX-License-Identifier: Apache-2.0

/// Builds the envelopes and taps of a `.hjif` file from a ``JSONParser/walk(_:along:handler:)``.
struct HJIFReader {
    static let format = ".hjif"
    static let keys = ["perceptions", "channels", "bands", "effects", "keyframes"]
    static let singular = ["perception", "channel", "band", "effect", "keyframe"]
    /// Ticks past this are refused before the timescale is known: 24 h at the largest timescale.
    static let maxTicks = HapticPattern.longestSeconds * Double(HJIFImport.maxTimescale)
    /// A keyframe frequency above this (Hz) is refused as not a frequency.
    static let maxFrequency = 100_000.0
    /// The frequency of a tap whose keyframe gives none (the reference encoder's default, 90 Hz).
    static let defaultFrequency = 90.0

    /// One keyframe: ticks (relative, then absolute), amplitude 0...1, frequency in Hz (NaN: none).
    struct Key {
        var time: Double
        var amplitude: Double
        var frequency: Double
    }

    /// What a channel or perception holds so far: taps, and amplitude and frequency lines, in ticks.
    struct Content {
        var taps: [Key] = []
        var lines: [Polyline] = []
        var frequencies: [Polyline] = []

        /// `other`'s content, its amplitudes times `gain`; taken without a copy when there is nothing to scale
        /// or add to (10^6 taps are 24 MB at each level they pass).
        mutating func add(_ other: Content, gain: Double = 1) {
            if gain == 1 && taps.isEmpty && lines.isEmpty && frequencies.isEmpty {
                self = other
                return
            }
            taps += gain == 1 ? other.taps : other.taps.map { Key(time: $0.time, amplitude: min($0.amplitude * gain, 1), frequency: $0.frequency) }
            lines += gain == 1 ? other.lines : other.lines.map { Polyline(points: $0.points.map { .init(time: $0.time, value: min($0.value * gain, 1)) }) }
            frequencies += other.frequencies
        }
    }

    var index = [Int](repeating: -1, count: 5)
    var effectKeys: [Key] = []
    var bandKeys: [Key] = []
    var bandEffects: [(position: Double, range: Range<Int>)] = []
    var channel = Content(), perception = Content(), kept = Content()
    var dropped: [String: Int] = [:]
    var curveTypes: Set<String> = []
    var channelsKept = 0, perceptionChannels = 0

    static func failure(_ location: String, _ reason: String) -> HapticFileError {
        HapticFileError(format: format, location: location, reason: reason)
    }

    /// Where the walk is, down to `level`: `perceptions[0].channels[1]...`.
    func place(_ level: Int) -> String {
        (0...level).map { "\(Self.keys[$0])[\(index[$0])]" }.joined(separator: ".")
    }

    mutating func handle(_ event: JSONParser.WalkEvent) throws(HapticFileError) {
        switch event {
        case .open(let level):
            index[level] += 1
            for deeper in (level + 1)..<5 { index[deeper] = -1 }
        case .element(let value):
            index[4] += 1
            try keyframe(value)
        case .close(let level, let value, let walked):
            if case .object = value {} else {
                index[level] += 1
                throw Self.failure(place(level), "expected an object, found \(value.summary)")
            }
            let fields = value.object!
            if level < 4 {
                let inner = Self.keys[level + 1]
                if let extra = fields[inner] {
                    throw Self.failure(place(level) + ".\(inner)", walked ? "appears twice" : "expected an array, found \(extra.summary)")
                }
                // A Reference effect has no keyframes of its own (it names one in the effect library).
                if !walked && level != 3 { throw Self.failure(place(level), "no \"\(inner)\" array") }
            }
            switch level {
            case 3: try closeEffect(fields)
            case 2: try closeBand(fields)
            case 1: try closeChannel(fields)
            default: try closePerception(fields)
            }
        }
    }

    /// A whole number of ticks, 0 or more.
    static func ticks(_ raw: JSONValue, at path: String) throws(HapticFileError) -> Double {
        guard let n = raw.number, n.isFinite else { throw failure(path, "expected a whole number of ticks, found \(raw.summary)") }
        guard n >= 0, n == n.rounded(), n <= maxTicks else { throw failure(path, "\(n) is not a whole number of ticks from 0 to \(Int(maxTicks))") }
        return n
    }

    /// A number within `range`, or nil when absent.
    static func number(_ fields: [String: JSONValue], _ key: String, at path: String, in range: ClosedRange<Double>) throws(HapticFileError) -> Double? {
        guard let raw = fields[key] else { return nil }
        guard let n = raw.number, n.isFinite else { throw failure("\(path).\(key)", "expected a number, found \(raw.summary)") }
        guard range.contains(n) else { throw failure("\(path).\(key)", "\(n) is outside \(range.lowerBound)...\(range.upperBound)") }
        return n
    }

    /// One keyframe: a missing position, amplitude or frequency is the previous keyframe's (0, 0, none at first).
    mutating func keyframe(_ value: JSONValue) throws(HapticFileError) {
        let at = place(4)
        guard let k = value.object else { throw Self.failure(at, "expected an object with relative_position, amplitude_modulation, frequency_modulation, found \(value.summary)") }
        let previous = effectKeys.last ?? Key(time: 0, amplitude: 0, frequency: .nan)
        let time = try k["relative_position"].map { raw throws(HapticFileError) in try Self.ticks(raw, at: at + ".relative_position") } ?? previous.time
        if time < previous.time {
            throw Self.failure(at + ".relative_position", "\(Int(time)) is before the keyframe before it (\(Int(previous.time))): keyframes must not go back")
        }
        // Amplitudes are -1...1 as the standard codes them; a Curve band's signal may swing below 0 (its size is
        // used), the band type is only known when the band closes.
        let amplitude = try Self.number(k, "amplitude_modulation", at: at, in: -1...1) ?? previous.amplitude
        let frequency = try Self.number(k, "frequency_modulation", at: at, in: 0...Self.maxFrequency) ?? previous.frequency
        effectKeys.append(Key(time: time, amplitude: amplitude, frequency: frequency))
    }

    mutating func closeEffect(_ fields: [String: JSONValue]) throws(HapticFileError) {
        let at = place(3)
        defer { effectKeys.removeAll(keepingCapacity: true) }
        let type = fields["effect_type"] ?? .string("Basis")
        guard let name = type.string else { throw Self.failure(at + ".effect_type", "expected \"Basis\", \"Reference\" or \"Composite\", found \(type.summary)") }
        guard name == "Basis" else {
            dropped["\(name) effects (only Basis effects are read)", default: 0] += 1
            return
        }
        guard let raw = fields["position"] else { throw Self.failure(at, "no \"position\"") }
        let position = try Self.ticks(raw, at: at + ".position")
        let start = bandKeys.count
        for key in effectKeys {
            let time = position + key.time
            guard time <= Self.maxTicks else { throw Self.failure(at, "a keyframe at \(Int(time)) ticks is past 24 h at any timescale") }
            bandKeys.append(Key(time: time, amplitude: key.amplitude, frequency: key.frequency))
        }
        bandEffects.append((position, start..<bandKeys.count))
    }

    mutating func closeBand(_ fields: [String: JSONValue]) throws(HapticFileError) {
        let at = place(2)
        defer { bandKeys.removeAll(); bandEffects.removeAll() }
        guard let raw = fields["band_type"] else { throw Self.failure(at, "no \"band_type\"") }
        guard let type = raw.string else { throw Self.failure(at + ".band_type", "expected a string, found \(raw.summary)") }
        switch type {
        case "Transient":
            channel.taps.reserveCapacity(channel.taps.count + bandKeys.count)
            for key in bandKeys where key.amplitude != 0 { channel.taps.append(Key(time: key.time, amplitude: abs(key.amplitude), frequency: key.frequency)) }
        case "Curve", "VectorialWave":
            if type == "Curve", let curve = fields["curve_type"]?.string, curve != "Linear" { curveTypes.insert(curve) }
            let (line, frequency) = lines()
            if line.points.count > 1 { channel.lines.append(line) }
            if frequency.points.count > 1 { channel.frequencies.append(frequency) }
        case "WaveletWave":
            dropped["WaveletWave bands (wavelet-coded signals are not read)", default: 0] += 1
        default:
            throw Self.failure(at + ".band_type", "\"\(type)\" is not Transient, Curve, VectorialWave or WaveletWave")
        }
    }

    /// The band's amplitude and frequency as lines: effects in order of position, each until the next begins
    /// (the reference decoder plays the latest effect begun), 0 between them.
    func lines() -> (Polyline, Polyline) {
        let order = bandEffects.indices.sorted { (bandEffects[$0].position, $0) < (bandEffects[$1].position, $1) }
        var amplitude = Polyline(), frequency = Polyline()
        for (n, e) in order.enumerated() {
            let next = n + 1 < order.count ? bandEffects[order[n + 1]].position : Double.infinity
            let keys = bandKeys[bandEffects[e].range]
            amplitude.points += Self.piece(keys.map { Polyline.Point(time: $0.time, value: abs($0.amplitude)) }, until: next)
            frequency.points += Self.piece(keys.filter { !$0.frequency.isNaN }.map { Polyline.Point(time: $0.time, value: $0.frequency) }, until: next)
        }
        return (amplitude, frequency)
    }

    /// One effect's points, cut where the next effect begins (at the value there), or ending at 0 before it.
    static func piece(_ given: [Polyline.Point], until next: Double) -> [Polyline.Point] {
        let inside = given.filter { $0.time < next }
        guard let first = given.first, let last = given.last, let before = inside.last, last.time > first.time else { return [] }
        var points = inside
        if last.time > next, let after = given.first(where: { $0.time >= next }) {
            let x = after.time > before.time ? (next - before.time) / (after.time - before.time) : 1
            points.append(.init(time: next, value: before.value + (after.value - before.value) * x))
        } else {
            if last.time > before.time { points.append(last) }
            points.append(.init(time: last.time, value: 0))
            if next.isFinite { points.append(.init(time: next, value: 0)) }
        }
        return points
    }

    mutating func closeChannel(_ fields: [String: JSONValue]) throws(HapticFileError) {
        let gain = try Self.number(fields, "gain", at: place(1), in: 0...1e6) ?? 1
        perception.add(channel, gain: gain)
        channel = Content()
        perceptionChannels += 1
    }

    mutating func closePerception(_ fields: [String: JSONValue]) throws(HapticFileError) {
        let at = place(0)
        defer { (perception, perceptionChannels) = (Content(), 0) }
        guard let raw = fields["perception_modality"] else { throw Self.failure(at, "no \"perception_modality\"") }
        guard let modality = raw.string else { throw Self.failure(at + ".perception_modality", "expected a string, found \(raw.summary)") }
        guard modality == "Vibrotactile" else {
            dropped["\(modality) perceptions (only Vibrotactile ones play on a vibration motor)", default: 0] += 1
            return
        }
        kept.add(perception)
        channelsKept += perceptionChannels
    }
}
