// A breath that can be steered while it plays. The session is a list of pieces of breath phases placed
// in session time; an edit (strength, sharpness, pace, pattern, pause and resume, seek, finish after this
// breath, loop) cuts the list at the instant it takes effect and rebuilds what follows. The pieces turn
// into the same events and curves a BreathPlan plays, from any instant on (so a renderer can pick up there).
// SPDX-License-Identifier: Apache-2.0

/// One stretch of one breath phase: `seconds` of the phase's swell from level `from` to level `to`.
public struct LivePiece: Sendable, Equatable {
    public var kind: BreathPhase
    public var cycle: Int
    /// Index of the phase in the breath pattern.
    public var phaseIndex: Int
    /// Session seconds at which it starts.
    public var start: Double
    public var seconds: Double
    public var from: Double
    public var to: Double
    /// Multiplies the swell (the user's strength, faded in and out around a pause or a seek).
    public var strength: Double
    public var sharpness: Double
    /// The piece starts its phase (not a continuation after a cut): a cue tap belongs here.
    public var phaseStart: Bool
    /// Seconds into its phase at which the piece starts (0 unless cut): a hold's ticks keep their rhythm.
    public var phaseOffset = 0.0
    /// Index of its pattern in the plan's `patterns` (the pattern changes mid-session).
    public var pattern = 0
    /// Seconds of its whole phase as placed (cut pieces keep it; 0: this piece's own end is the phase's).
    public var phaseSeconds = 0.0
    /// A seek's fade: the cycle the seek goes to, which begins when the fade ends (nil: no seek's fade).
    public var fadingToCycle: Int?

    public var end: Double { start + seconds }

    /// The swell level at session time `t` within the piece (linear between its ends).
    func level(at t: Double) -> Double {
        guard seconds > 0 else { return to }
        return from + (to - from) * min(1, max(0, (t - start) / seconds))
    }

    /// The piece from `t` on (t inside it).
    func tail(from t: Double) -> LivePiece {
        var p = self
        p.from = level(at: t)
        p.seconds = end - t
        p.start = t
        p.phaseStart = phaseStart && t == start
        p.phaseOffset = phaseOffset + (t - start)
        return p
    }

    /// The piece up to `t`.
    func head(to t: Double) -> LivePiece {
        var p = self
        p.to = level(at: t)
        p.seconds = t - start
        return p
    }
}

/// A breath that can be steered while it plays. Holds the session as a list of ``LivePiece``s placed in
/// session time; each edit (strength, sharpness, pace, pause and resume, seek, finish after this breath)
/// cuts the list at the instant it takes effect and rebuilds what follows. ``haptics(from:)`` gives the
/// same events and curves a ``BreathPlan`` plays, from any instant on, so a renderer can pick up there.
///
///     var plan = LivePlan(pattern: try BreathPattern.parse("box"), loop: true)
///     plan.setStrength(0.5, at: 12)
///     plan.pause(at: 20)
///     plan.resume(at: 25)
///     let rest = plan.haptics(from: 25)
public struct LivePlan: Sendable {
    /// The pattern placed from now on (a pattern change replaces it), the options (strength and sharpness
    /// follow the edits) and the pieces in session order.
    public private(set) var pattern: BreathPattern
    /// Every pattern the session has had, in order: a piece's `pattern` indexes it.
    public private(set) var patterns: [BreathPattern]
    public private(set) var options: BreathOptions
    public private(set) var pieces: [LivePiece] = []
    /// While paused: the pieces that were to follow, relative to the pause instant.
    public private(set) var suspended: [LivePiece]?
    /// The session time of the pause in effect, nil while playing.
    public private(set) var pausedAt: Double?
    /// Cycles are added as the session nears its end, until a finish.
    public private(set) var looping: Bool
    /// A finish never moves the end before the instant it was made at (see `finishAfterThisBreath`).
    private var endsNoEarlierThan = 0.0
    /// Seconds per breath cycle from now on (the pace).
    public private(set) var cycleScale = 1.0
    /// This actuator's place when several play one breath (`--spread`): where its swells' ramps fall within
    /// their phases and its own strength; nil: the breath as one board plays it.
    public var spread: BreathSpread?
    /// Fades around a pause, a resume or a seek, and the ramp of a strength change.
    public static let fadeSeconds = 0.15
    public static let rampSeconds = 0.1
    /// The paces a plan takes (breaths per minute); a pace outside is clamped to it, one that is not a
    /// positive number (NaN, infinite, 0 or less) changes nothing. (The control protocol takes 1...30.)
    public static let paceRange = 0.1...600.0
    /// The highest cycle a seek may name: far past any session, and far from overflowing the cycle counts.
    public static let maxCycle = 1_000_000_000

    /// The plan of `pattern` with `options` (its length, ramp, strength, cues); `loop` repeats it until told
    /// to finish.
    public init(pattern: BreathPattern, options: BreathOptions = BreathOptions(), loop: Bool = false) {
        self.pattern = pattern
        patterns = [pattern]
        self.options = options
        looping = loop
        let plan = BreathPlan(pattern: pattern, options: options)
        for placed in plan.phases {
            let index = pattern.phases.firstIndex(of: placed.spec) ?? 0
            pieces.append(LivePiece(kind: placed.spec.kind, cycle: placed.cycle, phaseIndex: index, start: placed.start,
                                    seconds: placed.seconds, from: placed.spec.from, to: placed.spec.to,
                                    strength: options.strength, sharpness: options.sharpness, phaseStart: true,
                                    phaseSeconds: placed.seconds))
        }
        if loop { extend(through: 60) }
    }

    /// Session seconds when the breath ends (its last phase, and the end taps with cues). Paused: never.
    public var duration: Double {
        if pausedAt != nil { return .infinity }
        let last = pieces.last?.end ?? 0
        return max(endsNoEarlierThan, options.cues && !looping ? last + BreathOptions.endTaps.last!.0 + BreathOptions.tapSeconds : last)
    }

    // MARK: - edits, each effective from session time t

    /// A new strength (0...1) from `t`, ramped over 0.1 s so the felt curve does not jump.
    /// (Clamped to 0...1; NaN changes nothing.) Returns false when nothing changed: the breath already has
    /// this strength from `t` on (then the plan is left as it was, not even cut).
    @discardableResult
    public mutating func setStrength(_ value: Double, at t: Double) -> Bool {
        guard !value.isNaN, t.isFinite else { return false }
        let value = min(1, max(0, value))
        if pausedAt == nil && options.strength == value && pieces.allSatisfy({ $0.end <= t || $0.strength == value }) {
            return false
        }
        options.strength = value
        let from = strengthAt(t)
        cut(at: t)
        let steps = 5
        for i in pieces.indices where pieces[i].start >= t {
            pieces[i].strength = value
        }
        // The ramp: the first 0.1 s in steps from the old strength to the new.
        for k in 0..<steps {
            let a = t + LivePlan.rampSeconds * Double(k) / Double(steps)
            let b = t + LivePlan.rampSeconds * Double(k + 1) / Double(steps)
            let s = from + (value - from) * Double(k + 1) / Double(steps)
            setStrength(s, from: a, to: b)
        }
        return true
    }

    /// A new sharpness (0...1) from `t`.
    /// (Clamped to 0...1; NaN changes nothing.) Returns false when the breath already has it from `t` on.
    @discardableResult
    public mutating func setSharpness(_ value: Double, at t: Double) -> Bool {
        guard !value.isNaN, t.isFinite else { return false }
        let value = min(1, max(0, value))
        if pausedAt == nil && options.sharpness == value && pieces.allSatisfy({ $0.end <= t || $0.sharpness == value }) {
            return false
        }
        options.sharpness = value
        cut(at: t)
        for i in pieces.indices where pieces[i].start >= t { pieces[i].sharpness = value }
        return true
    }

    /// A new pace (breaths per minute) from the first phase boundary at or after `t`: no jump in the felt
    /// curve, the phase playing now ends as planned. Returns the boundary.
    @discardableResult
    /// A pace that is not a positive number changes nothing (returns infinity: no boundary); one outside
    /// `paceRange` is clamped to it.
    public mutating func setPace(breathsPerMinute bpm: Double, at t: Double) -> Double {
        guard bpm > 0, bpm.isFinite, t.isFinite else { return .infinity }
        let bpm = min(LivePlan.paceRange.upperBound, max(LivePlan.paceRange.lowerBound, bpm))
        let previousScale = cycleScale
        cycleScale = (60 / bpm) / pattern.cycleSeconds
        if suspended != nil {
            repaceSuspended(by: cycleScale / previousScale)
            return duration
        }
        guard let boundary = pieces.first(where: { $0.start >= t && $0.phaseStart })?.start else { return duration }
        let next = pieces.first { $0.start == boundary }!
        let remaining = pieces.filter { $0.start >= boundary && $0.phaseStart }.count
        pieces.removeAll { $0.start >= boundary }
        place(from: boundary, cycle: next.cycle, phase: next.phaseIndex, phases: looping ? nil : remaining, first: next.pattern)
        return boundary
    }

    /// A new pattern, at its own phase lengths (the pace it implies, `60 / cycleSeconds`), from the start of
    /// the next cycle at or after `t` (paused: the next cycle the resume reaches); the session keeps its
    /// cycle count. `now`: what plays fades out over 0.15 s from `t` and the cycle playing starts again in
    /// the new pattern (paused: the resume starts it). Returns the session time the new pattern starts at
    /// (nil: no next cycle, the breath ends with this one; nothing changed); paused, 0 (it waits).
    @discardableResult
    public mutating func setPattern(_ new: BreathPattern, at t: Double, now: Bool) -> Double? {
        if !now && nextCycleStart(at: t) == nil { return nil }
        patterns.append(new)
        pattern = new
        cycleScale = 1
        let count = new.phases.count
        if var rest = suspended {
            // Paused: the pieces the resume will play, relative to the pause.
            guard let first = rest.first else { return 0 }
            let lastCycle = rest.last!.cycle
            let from = now ? first : rest.first { $0.start >= 0 && $0.phaseStart && $0.phaseIndex == 0 }!
            rest.removeAll { $0.start >= from.start }
            rest += placed(from: from.start, cycle: from.cycle, phase: 0,
                           phases: looping ? count : (lastCycle - from.cycle + 1) * count, first: nil)
            suspended = rest
            return 0
        }
        let lastCycle = pieces.last?.cycle ?? 1
        if now {
            let current = pieces.last { $0.start <= t }?.cycle ?? 1
            _ = fadeOut(at: t)
            let begins = t + LivePlan.fadeSeconds
            place(from: begins, cycle: current, phase: 0, phases: looping ? nil : max(1, lastCycle - current + 1) * count)
            return begins
        }
        let next = nextCycleStart(at: t)!
        pieces.removeAll { $0.start >= next.start }
        place(from: next.start, cycle: next.cycle, phase: 0, phases: looping ? nil : (lastCycle - next.cycle + 1) * count)
        return next.start
    }

    /// The first cycle starting at or after `t` (paused: in what the resume will play), nil if none.
    public func nextCycleStart(at t: Double) -> (start: Double, cycle: Int)? {
        let first: LivePiece?
        if let suspended {
            first = suspended.first { $0.phaseStart && $0.phaseIndex == 0 }
        } else {
            first = pieces.first { $0.start >= t && $0.phaseStart && $0.phaseIndex == 0 }
        }
        return first.map { ($0.start, $0.cycle) }
    }

    /// Paused, a pace change: what the resume plays goes at the new pace from its first instant, the rest
    /// of the phase the pause cut (its length times `ratio`, the new pace's to the old) included.
    mutating func repaceSuspended(by ratio: Double) {
        guard let rest = suspended, let first = rest.first else { return }
        let cut = first.phaseStart ? [] : Array(rest.prefix { !$0.phaseStart })
        var out: [LivePiece] = []
        if var piece = cut.first {
            piece.seconds = cut.reduce(0) { $0 + $1.seconds } * ratio
            piece.to = cut.last!.to
            piece.strength = cut.last!.strength
            piece.phaseOffset *= ratio
            piece.phaseSeconds *= ratio
            out.append(piece)
        }
        let next = rest.dropFirst(cut.count).first
        let phases = looping ? next.map { patterns[$0.pattern].phases.count - $0.phaseIndex } ?? 0
                             : rest.filter(\.phaseStart).count
        if let next, phases > 0 {
            out += placed(from: out.last?.end ?? 0, cycle: next.cycle, phase: next.phaseIndex, phases: phases, first: next.pattern)
        }
        suspended = out
    }

    /// Pause at `t`: fade out over 0.15 s, then silence until `resume`.
    public mutating func pause(at t: Double) {
        guard pausedAt == nil else { return }
        suspended = fadeOut(at: t).map { var p = $0; p.start -= t; return p }
        pausedAt = t
    }

    /// Resume at `t` where the pause left the breath, fading in over 0.15 s.
    public mutating func resume(at t: Double) {
        guard let suspended, pausedAt != nil else { return }
        pieces += suspended.map { var p = $0; p.start += t; return p }
        self.suspended = nil
        pausedAt = nil
        fadeStrength(from: t, over: LivePlan.fadeSeconds, rising: true)
        if looping { extend(through: t + 60) }
    }

    /// Jump to the start of `phase` (an index into the pattern's phases) of `cycle`, at `t`: what plays
    /// fades out over 0.15 s, then that phase starts (and the session goes on from there to its last cycle).
    /// (`cycle` is clamped to 1...`maxCycle`, and without looping to the last cycle (a session refuses a seek
    /// past it; seeking there, the plan would hold a billion cycles of pieces); `phase` to the pattern's.)
    public mutating func seek(cycle: Int, phase: Int, at t: Double) {
        guard t.isFinite else { return }
        let planned = (suspended ?? pieces).last?.cycle
        let cycle = min(looping ? LivePlan.maxCycle : max(1, planned ?? 1), max(1, cycle))
        let phase = min(max(0, phase), pattern.phases.count - 1)
        let lastCycle = planned ?? cycle
        if pausedAt != nil {
            pausedAt = nil
            suspended = nil
        } else {
            _ = fadeOut(at: t)
            for i in pieces.indices where pieces[i].start >= t { pieces[i].fadingToCycle = cycle }
        }
        let phases = looping ? nil : max(1, (lastCycle - cycle + 1) * pattern.phases.count - phase)
        place(from: t + LivePlan.fadeSeconds, cycle: cycle, phase: phase, phases: phases)
    }

    /// Finish the breath playing at `t` (its cycle), then stop: later cycles are dropped, looping ends.
    public mutating func finishAfterThisBreath(at t: Double) {
        // During a seek's fade "this breath" is the one sought: it plays, then the breath ends (a person who
        // seeks then finishes asked for that cycle). Otherwise the cycle playing at t.
        let playing = pieces.last { $0.start <= t }
        let current = playing?.fadingToCycle ?? playing?.cycle ?? 1
        // What played up to t stays played: the breath never ends before t (its frames are on the motor).
        endsNoEarlierThan = max(endsNoEarlierThan, t)
        looping = false
        pieces.removeAll { $0.cycle > current }
        if let s = suspended { suspended = s.filter { $0.cycle <= current } }
    }

    /// With looping on, adds whole cycles until the plan reaches `t`.
    public mutating func extend(through t: Double) {
        guard looping, pausedAt == nil, t.isFinite else { return }
        while (pieces.last?.end ?? 0) < t {
            let last = pieces.last
            let cycle = (last?.cycle ?? 0) + 1
            place(from: last?.end ?? 0, cycle: cycle, phase: 0, phases: pattern.phases.count)
        }
    }

    // MARK: - what it plays

    /// The pattern from session time `origin` on, with times relative to it (a renderer starting there).
    public func haptics(from origin: Double = 0) -> HapticPattern {
        var events: [HapticEvent] = []
        var curves: [ParameterCurve] = []
        var previous: BreathPhase?
        let gain = spread?.gain ?? 1
        for piece in pieces where piece.end > origin {
            let p = piece.start < origin ? piece.tail(from: origin) : piece
            defer { previous = p.kind }
            guard p.seconds > 0 else { continue }
            guard p.kind == .inhale || p.kind == .exhale else {
                Vocabulary.hold(options.holdSignal, start: p.start - origin, seconds: p.seconds, offset: p.phaseOffset,
                                holdSeconds: p.phaseOffset + p.seconds, strength: p.strength * gain, sharpness: p.sharpness,
                                events: &events, curves: &curves)
                continue
            }
            var start = p.start - origin
            let from = p.from
            if options.cues && p.phaseStart && previous != p.kind {
                // (the swell then starts at its phase's level, as BreathPlan's does)
                start += Vocabulary.phaseTaps(p.kind, at: start, strength: p.strength * gain, sharpness: p.sharpness,
                                              counted: options.countedTaps, events: &events, curves: &curves)
            }
            let seconds = p.end - origin - start
            guard seconds > 0 else { continue }
            if let spread, spread.travel != .together {
                travelling(p, from: start, to: start + seconds, origin: origin, spread: spread, events: &events, curves: &curves)
                continue
            }
            events.append(.continuous(at: start, duration: seconds, intensity: options.peak * p.strength * gain, sharpness: p.sharpness))
            curves.append(ParameterCurve(parameter: .intensityControl, time: start, points: [
                ControlPoint(time: 0, value: from, easing: options.easing), ControlPoint(time: seconds, value: p.to),
            ]))
        }
        if options.cues && !looping && pausedAt == nil, let end = pieces.last?.end, end >= origin {
            Vocabulary.endTaps(at: end - origin, strength: options.strength * gain, sharpness: options.sharpness,
                               events: &events, curves: &curves)
        }
        return HapticPattern(events: events, curves: curves)
    }

    /// A swell piece's stretch [a, b) (times from `origin`) as this actuator plays it when the breath travels:
    /// the phase's level at the progress `spread` gives, cut where its ramp starts and ends so each part is
    /// linear (held, ramping, held).
    private func travelling(_ p: LivePiece, from a: Double, to b: Double, origin: Double, spread: BreathSpread,
                            events: inout [HapticEvent], curves: inout [ParameterCurve]) {
        let spec = patterns[p.pattern].phases[p.phaseIndex]
        let phaseStart = p.start - p.phaseOffset - origin
        let phaseSeconds = p.phaseSeconds > 0 ? p.phaseSeconds : p.phaseOffset + p.seconds
        let ramp = spread.ramp(p.kind, seconds: phaseSeconds)
        func level(_ t: Double) -> Double {
            spec.from + (spec.to - spec.from) * spread.progress(p.kind, at: t - phaseStart, seconds: phaseSeconds)
        }
        let cuts = [a] + [phaseStart + ramp.start, phaseStart + ramp.end].filter { $0 > a && $0 < b } + [b]
        for (x, y) in zip(cuts, cuts.dropFirst()) where y - x > 1e-9 {
            events.append(.continuous(at: x, duration: y - x, intensity: options.peak * p.strength * spread.gain, sharpness: p.sharpness))
            curves.append(ParameterCurve(parameter: .intensityControl, time: x, points: [
                ControlPoint(time: 0, value: level(x), easing: options.easing), ControlPoint(time: y - x, value: level(y)),
            ]))
        }
    }

    /// The phase playing at `t`: its kind, cycle, seconds left (nil in a pause or after the end).
    public func phase(at t: Double) -> (kind: BreathPhase, cycle: Int, remaining: Double)? {
        guard let p = pieces.last(where: { $0.start <= t && t < $0.end }) else { return nil }
        // The phase may continue in later pieces (cut by edits): count to its real end.
        var end = p.end
        for q in pieces where q.start >= end - 1e-9 && q.start <= end + 1e-9 && !q.phaseStart && q.kind == p.kind { end = q.end }
        return (p.kind, p.cycle, end - t)
    }

    /// What the breath is doing at `t`, for the live view (nil in a pause or after the end).
    public func sample(at t: Double) -> BreathSample? {
        guard let p = pieces.last(where: { $0.start <= t && t < $0.end }), let phase = phase(at: t) else { return nil }
        let swell = p.kind == .inhale || p.kind == .exhale ? p.level(at: t) * p.strength : 0
        return BreathSample(phase: p.kind, phaseRemaining: phase.remaining, cycle: p.cycle, intensity: swell)
    }

    /// Cycles in the plan (growing while it loops).
    public var cycles: Int { (suspended?.last ?? pieces.last)?.cycle ?? 1 }

    /// Session times at which phases start, with their kind, cycle and pattern name.
    public var phaseStarts: [(time: Double, kind: BreathPhase, cycle: Int, pattern: String)] {
        pieces.filter(\.phaseStart).map { ($0.start, $0.kind, $0.cycle, patterns[$0.pattern].name) }
    }

    // MARK: - internals

    /// Splits the piece containing `t` so a piece boundary falls on `t`.
    mutating func cut(at t: Double) {
        guard let i = pieces.firstIndex(where: { $0.start < t && t < $0.end }) else { return }
        let p = pieces[i]
        pieces[i] = p.head(to: t)
        pieces.insert(p.tail(from: t), at: i + 1)
    }

    func strengthAt(_ t: Double) -> Double {
        pieces.last { $0.start <= t }?.strength ?? options.strength
    }

    /// Sets the strength of the stretch [a, b) (cutting pieces at its ends).
    mutating func setStrength(_ s: Double, from a: Double, to b: Double) {
        cut(at: a)
        cut(at: b)
        for i in pieces.indices where pieces[i].start >= a && pieces[i].end <= b + 1e-12 { pieces[i].strength = s }
    }

    /// Cuts at `t` and removes what follows, except 0.15 s of the piece playing then, its strength fading
    /// to 0. Returns the removed pieces (from `t` on).
    mutating func fadeOut(at t: Double) -> [LivePiece] {
        cut(at: t)
        let following = pieces.filter { $0.start >= t }
        pieces.removeAll { $0.start >= t }
        if let first = following.first {
            var fade = first
            fade.seconds = min(first.seconds, LivePlan.fadeSeconds)
            fade.to = first.level(at: first.start + fade.seconds)
            fade.phaseStart = false
            pieces.append(fade)
            fadeStrength(from: t, over: fade.seconds, rising: false)
        }
        return following
    }

    /// A linear fade of the strength over [t, t + seconds), in 5 steps, to 0 or from 0.
    mutating func fadeStrength(from t: Double, over seconds: Double, rising: Bool) {
        let full = options.strength
        let steps = 5
        for k in 0..<steps {
            let a = t + seconds * Double(k) / Double(steps)
            let b = t + seconds * Double(k + 1) / Double(steps)
            let f = rising ? Double(k + 1) / Double(steps + 1) : 1 - Double(k + 1) / Double(steps + 1)
            setStrength(full * f, from: a, to: b)
        }
    }

    /// Places `phases` whole phases from pattern phase `phase` of `cycle`, starting at `t`, at the current
    /// pace; `first` (an index into `patterns`) is the pattern of that first cycle (the rest of a cycle keeps
    /// the pattern it began in), later cycles play the current one. nil (a looping plan): the rest of that
    /// cycle, then whole cycles from `extend`, a minute past `t`. (Not a cycle's count of phases from
    /// `phase`: from a hold that ran into the next cycle, whose inhale `extend` then followed with a fresh
    /// cycle, skipping that cycle's hold and exhale: a pace or a seek in a loop did, issue 39.)
    mutating func place(from t: Double, cycle: Int, phase: Int, phases count: Int?, first: Int? = nil) {
        let rest = patterns[first ?? patterns.count - 1].phases.count - phase
        pieces += placed(from: t, cycle: cycle, phase: phase, phases: count ?? rest, first: first)
        if count == nil { extend(through: t + 60) }
    }

    func placed(from t: Double, cycle: Int, phase: Int, phases limit: Int, first: Int?) -> [LivePiece] {
        var out: [LivePiece] = []
        var at = t
        var c = cycle
        var i = phase
        var placed = 0
        var index = first ?? patterns.count - 1
        while placed < limit {
            let spec = patterns[index].phases[i]
            let seconds = spec.seconds * cycleScale
            out.append(LivePiece(kind: spec.kind, cycle: c, phaseIndex: i, start: at, seconds: seconds, from: spec.from,
                                 to: spec.to, strength: options.strength, sharpness: options.sharpness, phaseStart: true,
                                 pattern: index, phaseSeconds: seconds))
            at += seconds
            placed += 1
            i += 1
            if i == patterns[index].phases.count {
                i = 0
                c += 1
                index = patterns.count - 1
            }
        }
        return out
    }
}
