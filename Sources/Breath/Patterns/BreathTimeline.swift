// A pattern repeated for N cycles, sampled at any instant: phase, time left in it, intensity.

/// The four phases of a breath.
public enum BreathPhase: String, Sendable, CaseIterable {
    case inhale, hold, exhale, holdOut = "hold-out"
}

/// What the breath is doing at one instant.
public struct BreathSample: Sendable, Equatable {
    public var phase: BreathPhase
    /// Seconds left in this phase.
    public var phaseRemaining: Double
    /// 1-based cycle number.
    public var cycle: Int
    /// Intended felt intensity, 0...1.
    public var intensity: Double
}

/// `cycles` repetitions of a pattern. Inhale swells (smoothstep 0 -> peak), hold is silent,
/// exhale fades (peak -> 0), hold-out is silent.
public struct BreathTimeline: Sendable {
    public var pattern: BreathPattern
    public var cycles: Int
    /// Intensity at the top of the swell, 0...1.
    public var peak: Double

    public init(pattern: BreathPattern, cycles: Int, peak: Double = 0.8) {
        self.pattern = pattern
        self.cycles = cycles
        self.peak = peak
    }

    public var duration: Double { pattern.cycleSeconds * Double(cycles) }

    public func sample(at t: Double) -> BreathSample {
        let p = pattern
        let clamped = min(max(t, 0), duration)
        var cycle = Int(clamped / p.cycleSeconds)
        if cycle >= cycles { cycle = cycles - 1 }
        var u = clamped - Double(cycle) * p.cycleSeconds
        let phases: [(BreathPhase, Double)] = [(.inhale, p.inhale), (.hold, p.hold), (.exhale, p.exhale),
                                               (.holdOut, p.holdOut)]
        // The phase containing u; the session's very end belongs to the last non-empty phase.
        var chosen = phases.lastIndex(where: { $0.1 > 0 })!
        for (index, (_, length)) in phases.enumerated() where length > 0 {
            if u < length {
                chosen = index
                break
            }
            if index != chosen { u -= length }
        }
        let (phase, length) = phases[chosen]
        let x = min(u / length, 1)
        let level: Double
        switch phase {
        case .inhale: level = smoothstep(x)
        case .exhale: level = 1 - smoothstep(x)
        case .hold, .holdOut: level = 0
        }
        return BreathSample(phase: phase, phaseRemaining: max(0, length - u), cycle: cycle + 1,
                            intensity: level * peak)
    }
}

/// 3x^2 - 2x^3: starts and ends with zero slope, so a swell has no corner the skin notices.
@inline(__always)
public func smoothstep(_ x: Double) -> Double {
    let c = min(max(x, 0), 1)
    return c * c * (3 - 2 * c)
}
