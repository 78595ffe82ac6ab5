// The motor's voltage ceiling, enforced on the board whatever the host sends: a drive level whose
// magnitude is above the ceiling (rated voltage / supply voltage) is overdrive, allowed only from a
// bounded budget, as the DRV2605L bounds its overdrive. A spent budget holds the output at the ceiling
// until the motor has spent the recovery time at or below it. Integer arithmetic on board ticks.
// SPDX-License-Identifier: Apache-2.0

#if canImport(MotorWire)
import MotorWire
#endif

/// The overdrive budget: spent one tick per tick above the ceiling, earned back at
/// `budgetTicks / recoveryTicks` per tick at or below it, never above `budgetTicks`. So no single run
/// above the ceiling lasts longer than `budgetTicks`, and once the budget is spent, none starts again
/// until it is whole.
public struct OverdriveGuard: Sendable {
    public let limits: Limits
    /// Level magnitude the output may hold without limit.
    public let ceiling: Int16
    public let budgetTicks: UInt64
    public let recoveryTicks: UInt64
    /// Overdrive ticks left at `lastTick`.
    public private(set) var budget: UInt64
    /// The budget ran out: no overdrive until it is whole again.
    public private(set) var lockedOut = false
    var lastTick: UInt64 = 0
    /// The output from `lastTick` on is above the ceiling.
    var above = false
    /// Refill not yet credited (in units of 1 / recoveryTicks of a tick), so nothing is lost to rounding.
    var refillRemainder: UInt64 = 0

    public init(limits: Limits, clockHz: UInt32) {
        self.limits = limits
        ceiling = Int16(min(limits.ceilingLevel, 32767))
        budgetTicks = UInt64(limits.overdriveMs) * UInt64(clockHz) / 1000
        recoveryTicks = UInt64(limits.recoveryMs) * UInt64(clockHz) / 1000
        budget = budgetTicks
    }

    /// Accounts for the time from the last output change to `tick` (earlier ticks change nothing).
    public mutating func advance(to tick: UInt64) {
        guard tick > lastTick else { return }
        let dt = tick &- lastTick
        lastTick = tick
        if above {
            budget = budget > dt ? budget &- dt : 0
            if budget == 0 { lockedOut = true }
        } else if budget < budgetTicks {
            if recoveryTicks == 0 || dt >= recoveryTicks {
                budget = budgetTicks
            } else {
                let (earned, overflow) = dt.multipliedReportingOverflow(by: budgetTicks)
                if overflow {  // only with clocks far above 60 MHz: credit a little less, never more
                    budget = min(budgetTicks, budget &+ dt / (recoveryTicks / max(budgetTicks, 1) &+ 1))
                } else {
                    refillRemainder &+= earned
                    budget = min(budgetTicks, budget &+ refillRemainder / recoveryTicks)
                    refillRemainder %= recoveryTicks
                }
            }
            if budget == budgetTicks {
                lockedOut = false
                refillRemainder = 0
            }
        }
    }

    /// The level to output from `tick` on when `level` is wanted (call at every output change).
    public mutating func apply(_ level: Int16, at tick: UInt64) -> Int16 {
        advance(to: tick)
        var out = level
        if level.magnitude > ceiling.magnitude && (lockedOut || budget == 0) {
            out = level < 0 ? -ceiling : ceiling
        }
        above = out.magnitude > ceiling.magnitude
        return out
    }

    /// While the output is above the ceiling: the tick at which the budget runs out, when the output
    /// must drop to the ceiling.
    public var deadline: UInt64? { above ? lastTick &+ budget : nil }

    /// LIMITS as of `now`, with the budget left then.
    public func report(now: UInt64, clockHz: UInt32) -> Limits {
        var g = self
        g.advance(to: now)
        var r = limits
        r.availableMs = UInt16(min(g.budget * 1000 / UInt64(max(clockHz, 1)), UInt64(limits.overdriveMs)))
        return r
    }
}
