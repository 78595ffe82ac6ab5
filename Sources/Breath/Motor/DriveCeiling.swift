// A motor's voltage ceiling as the renderer sees it, and the per-frame overdrive budget that keeps the
// shaped drive inside the rule the board enforces (protocol.md, LIMITS; BoardCore's OverdriveGuard):
// above the ceiling only from a budget, and after spending it, nothing above until it is whole again.
// SPDX-License-Identifier: Apache-2.0

/// The highest drive a motor may hold, and the overdrive allowed above it.
public struct DriveCeiling: Sendable, Equatable {
    /// Highest drive (fraction of full drive, 0...1) the motor may hold without limit.
    public var level: Double
    /// The overdrive budget: longest time above `level` in one go, seconds.
    public var overdriveSeconds: Double
    /// Time at or below `level` that earns a spent budget back completely, seconds.
    public var recoverySeconds: Double
    /// Budget left now (a board reports it: an earlier session may have spent some), seconds.
    public var availableSeconds: Double

    public init(level: Double, overdriveSeconds: Double, recoverySeconds: Double, availableSeconds: Double? = nil) {
        self.level = min(max(level, 0), 1)
        self.overdriveSeconds = max(overdriveSeconds, 0)
        self.recoverySeconds = max(recoverySeconds, 0)
        self.availableSeconds = min(availableSeconds ?? overdriveSeconds, overdriveSeconds)
    }

    /// The ceiling rounded down to a grid of `steps` per full drive, so that quantising a drive at the
    /// ceiling can never land above the board's.
    func quantized(steps: Double) -> DriveCeiling {
        var c = self
        c.level = (level * steps).rounded(.down) / steps
        return c
    }
}

/// The board's budget rule, frame by frame, a little more cautious than the board: a frame goes above
/// the ceiling only when the budget left covers the whole frame plus a margin (late frame changes on
/// the board stretch a frame), and when it does not, the renderer treats overdrive as locked out until
/// the budget is whole again, as the board does once its budget is spent.
struct OverdriveBudget: Sendable {
    let ceiling: DriveCeiling
    let dt: Double
    let margin: Double
    var budget: Double
    var lockedOut = false

    init(_ ceiling: DriveCeiling, frameSeconds: Double) {
        self.ceiling = ceiling
        dt = frameSeconds
        margin = max(2 * frameSeconds, 0.1 * ceiling.overdriveSeconds)
        budget = ceiling.availableSeconds
    }

    /// The drive to output for one frame when `d` is wanted.
    mutating func limit(_ d: Double) -> Double {
        var out = d
        if abs(d) > ceiling.level {
            if !lockedOut && budget >= dt + margin {
                budget -= dt
                return d
            }
            lockedOut = true
            out = d < 0 ? -ceiling.level : ceiling.level
        }
        // At or below the ceiling: the budget is earned back.
        let full = ceiling.overdriveSeconds
        budget = ceiling.recoverySeconds > 0 ? min(full, budget + dt * full / ceiling.recoverySeconds) : full
        if budget >= full { lockedOut = false }
        return out
    }
}
