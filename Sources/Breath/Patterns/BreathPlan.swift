// A whole session laid out in time: every phase of every cycle, and the haptic pattern that plays it.
// SPDX-License-Identifier: Apache-2.0

/// One phase placed in the session.
public struct PlacedPhase: Sendable, Equatable {
    public var spec: PhaseSpec
    public var start: Double
    public var seconds: Double
    public var cycle: Int
    public var end: Double { start + seconds }
}

/// What the breath is doing at one instant (for the live view).
public struct BreathSample: Sendable, Equatable {
    public var phase: BreathPhase
    public var phaseRemaining: Double
    public var cycle: Int
    public var intensity: Double

    public init(phase: BreathPhase, phaseRemaining: Double, cycle: Int, intensity: Double) {
        self.phase = phase
        self.phaseRemaining = phaseRemaining
        self.cycle = cycle
        self.intensity = intensity
    }
}

/// Cycles of a pattern, scaled by the rate ramp, with the pattern of events and curves that plays them.
public struct BreathPlan: Sendable {
    public let pattern: BreathPattern
    public let options: BreathOptions
    public let phases: [PlacedPhase]
    public let cycles: Int
    public let duration: Double
    public let haptics: HapticPattern

    public init(pattern: BreathPattern, options: BreathOptions = BreathOptions()) {
        self.pattern = pattern
        self.options = options
        var placed: [PlacedPhase] = []
        var t = 0.0
        var cycle = 0
        let base = pattern.cycleSeconds
        func scale(cycle: Int, cycles: Int?, elapsed: Double, total: Double?) -> Double {
            guard let ramp = options.rampBPM else { return 1 }
            let f: Double
            if let cycles { f = cycles > 1 ? Double(cycle) / Double(cycles - 1) : 0 } else { f = min(1, elapsed / total!) }
            let bpm = ramp.from + (ramp.to - ramp.from) * f
            return (60 / bpm) / base
        }
        switch options.length {
        case .cycles(let n):
            for c in 0..<max(1, n) {
                let s = scale(cycle: c, cycles: max(1, n), elapsed: t, total: nil)
                for p in pattern.phases {
                    placed.append(PlacedPhase(spec: p, start: t, seconds: p.seconds * s, cycle: c + 1))
                    t += p.seconds * s
                }
            }
            cycle = max(1, n)
        case .minutes(let m):
            let total = m * 60
            repeat {
                let s = scale(cycle: cycle, cycles: nil, elapsed: t, total: total)
                for p in pattern.phases {
                    placed.append(PlacedPhase(spec: p, start: t, seconds: p.seconds * s, cycle: cycle + 1))
                    t += p.seconds * s
                }
                cycle += 1
            } while t + base * scale(cycle: cycle, cycles: nil, elapsed: t, total: total) <= total + 1e-9
        }
        phases = placed
        cycles = cycle
        var haptics = BreathPlan.haptics(for: placed, options: options)
        var end = t
        if options.cues {
            Vocabulary.endTaps(at: t, strength: options.strength, sharpness: options.sharpness,
                               events: &haptics.events, curves: &haptics.curves)
            end = t + BreathOptions.endTaps.last!.0 + BreathOptions.tapSeconds
        }
        self.haptics = HapticPattern(events: haptics.events, curves: haptics.curves)
        duration = end
    }

    /// Continuous events with intensity curves for swelling phases; cue taps at phase starts.
    static func haptics(for phases: [PlacedPhase], options o: BreathOptions) -> HapticPattern {
        var events: [HapticEvent] = []
        var curves: [ParameterCurve] = []
        var previousKind: BreathPhase?
        for p in phases {
            defer { previousKind = p.spec.kind }
            guard p.spec.kind == .inhale || p.spec.kind == .exhale else {
                Vocabulary.hold(o.holdSignal, start: p.start, seconds: p.seconds, offset: 0, holdSeconds: p.seconds,
                                strength: o.strength, sharpness: o.sharpness, events: &events, curves: &curves)
                continue
            }
            var start = p.start
            let firstOfKind = previousKind != p.spec.kind
            if o.cues && firstOfKind {
                start += Vocabulary.phaseTaps(p.spec.kind, at: p.start, strength: o.strength, sharpness: o.sharpness,
                                              counted: o.countedTaps, events: &events, curves: &curves)
            }
            let seconds = p.end - start
            guard seconds > 0 else { continue }
            events.append(.continuous(at: start, duration: seconds, intensity: o.peak * o.strength, sharpness: o.sharpness))
            curves.append(ParameterCurve(parameter: .intensityControl, time: start, points: [
                ControlPoint(time: 0, value: p.spec.from, easing: o.easing), ControlPoint(time: seconds, value: p.spec.to),
            ]))
        }
        return HapticPattern(events: events, curves: curves)
    }

    /// The phase at `t` (the session's end belongs to the last phase) and the intended intensity.
    public func sample(at t: Double) -> BreathSample {
        var lo = 0, hi = phases.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if phases[mid].start <= t { lo = mid } else { hi = mid - 1 }
        }
        let p = phases[lo]
        return BreathSample(phase: p.spec.kind, phaseRemaining: max(0, p.end - t), cycle: p.cycle,
                            intensity: haptics.continuousIntensity(at: t))
    }
}
