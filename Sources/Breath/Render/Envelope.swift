// A pattern compiled for streaming: pieces of continuous intensity in time order, plus the taps.

/// `HapticPattern.continuousIntensity(at:)`, precomputed: between two breakpoints (event edges,
/// attack/release ends, curve points) the intensity is max(linear event terms) x one eased curve segment.
/// A `Cursor` reads it at increasing times in O(1) per read.
public struct Envelope: Sendable {
    struct CurveSegment: Sendable {
        var t0: Double, t1: Double, v0: Double, v1: Double
        var easing: Easing

        @inline(__always)
        func value(at t: Double) -> Double {
            guard t1 > t0 else { return min(max(v1, 0), 1) }
            let v = v0 + (v1 - v0) * easing.apply((t - t0) / (t1 - t0))
            return min(max(v, 0), 1)
        }

        static let neutral = CurveSegment(t0: 0, t1: 0, v0: 1, v1: 1, easing: .linear)
    }

    /// One active continuous event: its intensity, and its attack/release ramps if it has any.
    struct Term: Sendable {
        var event: HapticEvent
        var constant: Bool

        @inline(__always)
        func value(at t: Double) -> Double { constant ? event.intensity : event.intensity * event.envelope(at: t) }
    }

    struct Piece: Sendable {
        var start: Double, end: Double
        /// The continuous events active in this piece (the strongest one counts).
        var terms: [Term]
        var curve: CurveSegment
    }

    let pieces: [Piece]
    public let taps: [Tap]

    public init(_ pattern: HapticPattern) {
        taps = pattern.taps
        let continuous = pattern.events.filter { !$0.isTransient && $0.duration > 0 }
        let intensityCurves = pattern.curves.filter { $0.parameter == .intensityControl }
        var cuts = Set<Double>()
        for e in continuous {
            cuts.insert(e.time)
            cuts.insert(e.endTime)
            if e.attack > 0 { cuts.insert(e.time + min(e.attack, e.duration)) }
            if e.release > 0 { cuts.insert(max(e.time, e.endTime - e.release)) }
        }
        for c in intensityCurves {
            cuts.insert(c.time)
            for p in c.points { cuts.insert(c.time + p.time) }
        }
        let times = cuts.sorted()
        var pieces: [Piece] = []
        for (a, b) in zip(times, times.dropFirst()) where b > a {
            let mid = (a + b) / 2
            let terms = continuous.filter { $0.time <= mid && mid < $0.endTime }
                .map { Term(event: $0, constant: $0.attack == 0 && $0.release == 0) }
            guard !terms.isEmpty else { continue }
            var active: ParameterCurve?
            for c in intensityCurves where c.time <= mid { active = c }
            pieces.append(Piece(start: a, end: b, terms: terms, curve: active.map { Envelope.segment(of: $0, at: mid) } ?? .neutral))
        }
        self.pieces = pieces
    }

    /// The eased segment of `curve` containing pattern time `t`.
    static func segment(of curve: ParameterCurve, at t: Double) -> CurveSegment {
        let pts = curve.points
        let local = t - curve.time
        if pts.isEmpty { return .neutral }
        if local <= pts[0].time { return CurveSegment(t0: 0, t1: 0, v0: pts[0].value, v1: pts[0].value, easing: .linear) }
        for (p, q) in zip(pts, pts.dropFirst()) where local < q.time {
            return CurveSegment(t0: curve.time + p.time, t1: curve.time + q.time, v0: p.value, v1: q.value, easing: p.easing)
        }
        let last = pts[pts.count - 1].value
        return CurveSegment(t0: 0, t1: 0, v0: last, v1: last, easing: .linear)
    }

    /// Reads the envelope at non-decreasing times.
    public struct Cursor: Sendable {
        let envelope: Envelope
        var index = 0

        public init(_ envelope: Envelope) { self.envelope = envelope }

        @inline(__always)
        public mutating func intensity(at t: Double) -> Double {
            let pieces = envelope.pieces
            while index < pieces.count && pieces[index].end <= t { index += 1 }
            guard index < pieces.count, pieces[index].start <= t else { return 0 }
            let p = pieces[index]
            var strongest = 0.0
            for term in p.terms { strongest = max(strongest, term.value(at: t)) }
            return min(max(strongest * p.curve.value(at: t), 0), 1)
        }
    }
}
