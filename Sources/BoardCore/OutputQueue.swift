// Levels handed to the motor port ahead of their tick (the output lead), so that STATUS can say what is
// output now rather than what was last handed over (no heap).
// SPDX-License-Identifier: Apache-2.0

#if canImport(MotorWire)
import MotorWire
#endif

/// Up to 64 (tick, level) changes still ahead of the board's clock, oldest first.
struct OutputQueue {
    private var ticks = InlineArray<64, UInt64>(repeating: 0)
    private var levels = InlineArray<64, Int16>(repeating: 0)
    private var head = 0
    private var count = 0
    /// The level in force before the oldest queued change.
    private var settled: Int16 = 0

    /// `level` takes effect at `tick` (ticks never decrease).
    mutating func push(_ level: Int16, at tick: UInt64) {
        if count == 64 { dropOldest() }
        ticks[(head + count) % 64] = tick
        levels[(head + count) % 64] = level
        count += 1
    }

    /// Forgets changes that have taken effect by `now`.
    mutating func settle(now: UInt64) {
        while count > 0 && ticks[head] <= now { dropOldest() }
    }

    /// Changes after `tick` are cancelled and `level` takes effect at `tick` (the motor turned off then).
    mutating func cut(to level: Int16, at tick: UInt64) {
        while count > 0 && ticks[(head + count - 1) % 64] > tick { count -= 1 }
        push(level, at: tick)
    }

    /// The level in force at `now`.
    func level(at now: UInt64) -> Int16 {
        var level = settled
        var i = 0
        while i < count && ticks[(head + i) % 64] <= now {
            level = levels[(head + i) % 64]
            i += 1
        }
        return level
    }

    private mutating func dropOldest() {
        settled = levels[head]
        head = (head + 1) % 64
        count -= 1
    }
}
