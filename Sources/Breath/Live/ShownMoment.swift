// What a live view shows of a playing breath at an instant: the phase, its time left, the cycle and count.
// SPDX-License-Identifier: Apache-2.0

/// The moment of a playing pattern a status line shows: a steered breath (`LivePlan`) where it stands, paused
/// or not; a fixed breath (`BreathPlan`); or an AHAP pattern, which has no phases and shows as one "pattern"
/// phase counting down to its end. At or past the end the breath stands in its last phase with 0.0 s left
/// (a sample at the end itself is past the plan, and the last status of a session often comes after it).
public struct ShownMoment: Sendable, Equatable {
    public var sample: BreathSample
    /// "inhale", "hold"..., "paused" or "pattern".
    public var phase: String
    /// Cycles in all (0 for a looping breath: its plan holds only the cycles laid out so far).
    public var cycles: Int

    public init(elapsed: Double, live: LivePlan?, plan: BreathPlan?, pattern: HapticPattern, duration: Double) {
        let end = live?.duration ?? duration
        let t = max(0, min(elapsed, end - 0.001))
        let paused = live?.pausedAt != nil
        // (Paused, the breath stands where the pause found it: its cycle and what was left of its phase.)
        sample = live.map { live in
            live.sample(at: live.pausedAt.map { max(0, $0 - 0.001) } ?? t)
                ?? BreathSample(phase: .hold, phaseRemaining: 0, cycle: live.cycles, intensity: 0)
        }
            ?? plan?.sample(at: t)
            ?? BreathSample(phase: .inhale, phaseRemaining: duration - t, cycle: 1, intensity: pattern.continuousIntensity(at: t))
        phase = paused ? "paused" : plan == nil ? "pattern" : sample.phase.rawValue
        cycles = live.map { $0.looping ? 0 : $0.cycles } ?? plan?.cycles ?? 1
    }
}
