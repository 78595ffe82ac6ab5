// The two time scales inside the simulated world, kept apart by type on its internal paths: the world's
// (the host's) nanoseconds, and the board clock's ticks. SimClock converts between them. The public API
// of SimWorld keeps plain UInt64s; these are for the parts behind it.
// SPDX-License-Identifier: Apache-2.0

/// An instant of the world's time, ns: virtual time from 0, or the monotonic clock since the world's epoch.
struct HostNanos: Comparable, Hashable, Sendable, CustomStringConvertible {
    var ns: UInt64
    init(_ ns: UInt64) { self.ns = ns }

    static let zero = HostNanos(0)
    static func < (a: HostNanos, b: HostNanos) -> Bool { a.ns < b.ns }
    /// `d` ns later.
    static func + (t: HostNanos, d: UInt64) -> HostNanos { HostNanos(t.ns + d) }
    /// The ns from `b` to `a` (a >= b).
    static func - (a: HostNanos, b: HostNanos) -> UInt64 { a.ns - b.ns }
    var description: String { "\(ns) ns" }
}

/// A reading of the simulated board's own clock, ticks (its rate is the clock's `clockHz`).
struct BoardTicks: Comparable, Hashable, Sendable, CustomStringConvertible {
    var raw: UInt64
    init(_ raw: UInt64) { self.raw = raw }

    static func < (a: BoardTicks, b: BoardTicks) -> Bool { a.raw < b.raw }
    var description: String { "tick \(raw)" }
}

extension SimClock {
    /// The board's clock at world instant `t`.
    func ticks(at t: HostNanos) -> BoardTicks { BoardTicks(ticks(atHostNs: t.ns)) }
    /// The first world instant at which the board's clock reads `tick` or later.
    func instant(at tick: BoardTicks) -> HostNanos { HostNanos(hostNs(atTick: tick.raw)) }
}
