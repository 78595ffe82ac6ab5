// The breath's vocabulary of taps, one place for BreathPlan and LivePlan: cue taps at phase starts
// (single, or counted: one at the inhale, two at the exhale), a faint sign of life during holds (slow
// ticks or a soft pulse, so a silent hold is not taken for a dead device) and the session-complete taps.
// SPDX-License-Identifier: Apache-2.0

/// What plays during a hold.
public enum HoldSignal: String, Sendable, CaseIterable {
    /// Silence (the default).
    case none
    /// A faint tap every second.
    case ticks
    /// A soft, faint swell every 1.5 s.
    case pulse
}

enum Vocabulary {
    /// Counted taps: the gap between the exhale's two taps, and the silence before the swell after them.
    static let countedGap = 0.15
    /// Counted taps' intensity (the count tells inhale from exhale, not the strength).
    static let countedTap = 0.7
    /// Hold ticks: one every `tickPeriod` from `tickPeriod` into the hold, at this intensity.
    static let tickPeriod = 1.0
    static let tickLevel = 0.3
    /// Hold pulse: `pulseSeconds` long (soft attack and release), one every `pulsePeriod`, the first
    /// `pulseFirst` into the hold.
    static let pulsePeriod = 1.5
    static let pulseFirst = 0.5
    static let pulseSeconds = 0.5
    static let pulseLevel = 0.2
    /// Nothing of the hold signal in the last this many seconds of a hold (the next phase's cue is clear).
    static let quietBeforeEnd = 0.4

    /// Cue taps at the start (`at`) of an inhale or exhale; returns the seconds the swell waits after it.
    static func phaseTaps(_ kind: BreathPhase, at t: Double, strength: Double, sharpness: Double, counted: Bool,
                          events: inout [HapticEvent], curves: inout [ParameterCurve]) -> Double {
        // Intensity control multiplies taps too: set it to 1 for the taps, the swell follows.
        curves.append(ParameterCurve(parameter: .intensityControl, time: t, points: [ControlPoint(time: 0, value: 1)]))
        guard counted else {
            let level = kind == .inhale ? BreathOptions.inhaleTap : BreathOptions.exhaleTap
            events.append(.transient(at: t, intensity: level * strength, sharpness: sharpness))
            return BreathOptions.tapSeconds
        }
        let count = kind == .inhale ? 1 : 2
        for k in 0..<count {
            events.append(.transient(at: t + Double(k) * countedGap, intensity: countedTap * strength, sharpness: sharpness))
        }
        // The inhale swells from silence, so it may follow the tap at once; the exhale starts strong, so
        // it waits one gap after its second tap, or the two would run into the swell.
        return count == 1 ? BreathOptions.tapSeconds : Double(count) * countedGap
    }

    /// The hold signal's events inside a hold piece from `start` for `seconds`, `offset` seconds into its
    /// hold (a piece cut by a live edit keeps the hold's rhythm).
    static func hold(_ signal: HoldSignal, start: Double, seconds: Double, offset: Double, holdSeconds: Double,
                     strength: Double, sharpness: Double, events: inout [HapticEvent], curves: inout [ParameterCurve]) {
        guard signal != .none, strength > 0 else { return }
        let period = signal == .ticks ? tickPeriod : pulsePeriod
        let first = signal == .ticks ? tickPeriod : pulseFirst
        let length = signal == .ticks ? 0 : pulseSeconds
        let lastEnd = holdSeconds - quietBeforeEnd
        var k = max(0, Int(((offset - first) / period).rounded(.up)))
        var added = false
        while true {
            let phaseTime = first + Double(k) * period
            k += 1
            if phaseTime + length > lastEnd + 1e-9 { break }
            let t = start + phaseTime - offset
            if t < start - 1e-9 { continue }
            // A tick on a cut belongs to the piece after it; a pulse must fit in its piece.
            if signal == .ticks ? t >= start + seconds - 1e-9 : t + length > start + seconds + 1e-9 { break }
            if !added {
                // Earlier curves may have left the intensity control at 0 (after an exhale): 1 for the hold.
                curves.append(ParameterCurve(parameter: .intensityControl, time: start, points: [ControlPoint(time: 0, value: 1)]))
                added = true
            }
            if signal == .ticks {
                events.append(.transient(at: t, intensity: tickLevel * strength, sharpness: sharpness))
            } else {
                events.append(HapticEvent(kind: .continuous(duration: length), time: t, intensity: pulseLevel * strength,
                                          sharpness: sharpness, attack: length * 0.4, release: length * 0.4))
            }
        }
    }

    /// The session-complete taps at `end`.
    static func endTaps(at end: Double, strength: Double, sharpness: Double, events: inout [HapticEvent],
                        curves: inout [ParameterCurve]) {
        curves.append(ParameterCurve(parameter: .intensityControl, time: end, points: [ControlPoint(time: 0, value: 1)]))
        for (offset, level) in BreathOptions.endTaps {
            events.append(.transient(at: end + offset, intensity: level * strength, sharpness: sharpness))
        }
    }
}
