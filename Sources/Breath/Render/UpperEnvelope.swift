// The pointwise maximum of many terms that are linear on their spans (continuous events, tap pulses),
// built by merging halves: O(n log n) time and O(n) memory for n spans, read in O(1) per frame.
// SPDX-License-Identifier: Apache-2.0

/// A term of the maximum: a continuous event's intensity x its attack/release envelope (linear on each
/// span the event is cut into), or a constant (an event without ramps, a tap's pulse).
struct Term: Sendable {
    var event: HapticEvent
    var constant: Bool

    @inline(always)
    func value(at t: Double) -> Double { constant ? event.intensity : event.intensity * event.envelope(at: t) }
}

/// On [start, end) the term numbered `term` is the largest.
struct Span: Sendable, Equatable {
    var start: Double
    var end: Double
    var term: Int32
}

/// Which term is largest when, as sorted, non-overlapping spans; where no span is, no term is active.
struct UpperEnvelope: Sendable {
    let terms: [Term]
    let spans: [Span]

    /// The maximum of `events` (durations > 0). Each event is cut where its envelope bends (attack end,
    /// release start, and where the two ramps cross), so every term is linear on its own span.
    init(events: [HapticEvent]) {
        var terms: [Term] = []
        var lists: [[Span]] = []
        terms.reserveCapacity(events.count)
        lists.reserveCapacity(events.count)
        for e in events where e.duration > 0 {
            var list: [Span] = []
            let constant = e.attack == 0 && e.release == 0
            var cuts = [e.time]
            if !constant {
                var inside: [Double] = []
                if e.attack > 0 { inside.append(e.time + e.attack) }
                if e.release > 0 { inside.append(e.endTime - e.release) }
                if e.attack > 0 && e.release > 0 { inside.append(e.time + e.duration / (1 + e.release / e.attack)) }
                cuts += inside.filter { $0 > e.time && $0 < e.endTime }.sorted()
            }
            cuts.append(e.endTime)
            for (a, b) in zip(cuts, cuts.dropFirst()) where b > a {
                list.append(Span(start: a, end: b, term: Int32(terms.count)))
                terms.append(Term(event: e, constant: constant))
            }
            if !list.isEmpty { lists.append(list) }
        }
        self.init(terms: terms, lists: lists)
    }

    /// The maximum of constant pulses: `pulses[k]` is (start, seconds, level).
    /// The first round of merging is done as the pulses are read, two at a time: a million one-span lists
    /// (about 64 bytes each) are never held at once. The result is the same as merging them afterwards.
    init(pulses: [(start: Double, seconds: Double, level: Double)]) {
        let kept = pulses.allSatisfy { $0.seconds > 0 } ? pulses : pulses.filter { $0.seconds > 0 }
        let terms = kept.map { Term(event: .continuous(at: $0.start, duration: $0.seconds, intensity: $0.level), constant: true) }
        func single(_ k: Int) -> [Span] { [Span(start: kept[k].start, end: kept[k].start + kept[k].seconds, term: Int32(k))] }
        var lists: [[Span]] = []
        lists.reserveCapacity((terms.count + 1) / 2)
        var k = 0
        while k < terms.count {
            lists.append(k + 1 < terms.count ? UpperEnvelope.merge(single(k), single(k + 1), terms) : single(k))
            k += 2
        }
        self.init(terms: terms, lists: lists)
    }

    /// Merges the lists pairwise, round after round, until one is left.
    init(terms: [Term], lists: [[Span]]) {
        self.terms = terms
        var lists = lists
        while lists.count > 1 {
            var next: [[Span]] = []
            next.reserveCapacity((lists.count + 1) / 2)
            var k = 0
            while k < lists.count {
                next.append(k + 1 < lists.count ? UpperEnvelope.merge(lists[k], lists[k + 1], terms) : lists[k])
                k += 2
            }
            lists = next
        }
        spans = lists.first ?? []
    }

    /// The maximum of two span lists: over each stretch where both have a term, the larger one, split where
    /// the two lines cross. Neighbouring spans of the same term are joined, so the result stays small.
    static func merge(_ a: [Span], _ b: [Span], _ terms: [Term]) -> [Span] {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        var out: [Span] = []
        out.reserveCapacity(a.count + b.count)
        func emit(_ p: Double, _ q: Double, _ term: Int32) {
            if let last = out.last, last.term == term, last.end == p {
                out[out.count - 1].end = q
            } else {
                out.append(Span(start: p, end: q, term: term))
            }
        }
        var i = 0, j = 0
        var t = min(a[0].start, b[0].start)
        while true {
            while i < a.count && a[i].end <= t { i += 1 }
            while j < b.count && b[j].end <= t { j += 1 }
            let aIn = i < a.count && a[i].start <= t
            let bIn = j < b.count && b[j].start <= t
            guard aIn || bIn else {
                let next = min(i < a.count ? a[i].start : .infinity, j < b.count ? b[j].start : .infinity)
                if next == .infinity { break }
                t = next
                continue
            }
            var q = Double.infinity
            if i < a.count { q = min(q, aIn ? a[i].end : a[i].start) }
            if j < b.count { q = min(q, bIn ? b[j].end : b[j].start) }
            if aIn && bIn {
                let x = a[i].term, y = b[j].term
                let dp = terms[Int(x)].value(at: t) - terms[Int(y)].value(at: t)
                let dq = terms[Int(x)].value(at: q) - terms[Int(y)].value(at: q)
                if dp >= 0 && dq >= 0 {
                    emit(t, q, x)
                } else if dp <= 0 && dq <= 0 {
                    emit(t, q, y)
                } else {
                    // The lines cross inside: the one ahead at t leads until the crossing.
                    let c = t + (q - t) * (dp / (dp - dq))
                    if c > t && c < q {
                        emit(t, c, dp > 0 ? x : y)
                        emit(c, q, dp > 0 ? y : x)
                    } else {
                        let mid = t + (q - t) / 2
                        emit(t, q, terms[Int(x)].value(at: mid) >= terms[Int(y)].value(at: mid) ? x : y)
                    }
                }
            } else {
                emit(t, q, aIn ? a[i].term : b[j].term)
            }
            t = q
        }
        return out
    }

    /// Reads the envelope at non-decreasing times.
    struct Cursor: Sendable {
        var index = 0

        /// The largest term's value at `t`, or nil where no term is active.
        @inline(always)
        mutating func value(at t: Double, in envelope: UpperEnvelope) -> Double? {
            let spans = envelope.spans
            while index < spans.count && spans[index].end <= t { index += 1 }
            guard index < spans.count, spans[index].start <= t else { return nil }
            return envelope.terms[Int(spans[index].term)].value(at: t)
        }

        /// Moves to `t` as `value(at:in:)` does, and says which term (its index) is in force there (nil: none) and until
        /// when that answer holds (the span's end, or the next span's start).
        mutating func seek(_ t: Double, in envelope: UpperEnvelope) -> (term: Int?, until: Double) {
            let spans = envelope.spans
            while index < spans.count && spans[index].end <= t { index += 1 }
            guard index < spans.count else { return (nil, .infinity) }
            guard spans[index].start <= t else { return (nil, spans[index].start) }
            return (Int(spans[index].term), spans[index].end)
        }
    }
}
