// The simulated world's time: where "now" is, how the next pass of the event loop is placed (jump to it in
// virtual time, sleep until it in real time), and the livelock watchdog that stops a virtual world whose
// passes let no time pass. It knows no bytes and no board: SimWorld asks it where to go next.
// SPDX-License-Identifier: Apache-2.0

import SerialLink

/// The world's clock and pacing. Virtual pacing jumps from event to event; real-time pacing counts from
/// `epoch` on the monotonic clock and the world sleeps (its lock released) until each event.
struct VirtualScheduler {
    let pacing: SimWorld.Pacing
    /// The monotonic instant real-time pacing counts from.
    let epochNs: UInt64
    /// The world's time now: moved only by `advance(to:)`.
    private(set) var now: HostNanos
    /// Time stands still: every pass asks for the current instant again (virtual pacing; tests).
    var frozen = false
    /// Passes in a row that let no time pass, and how many make a livelock.
    private var stillPasses = 0
    let stillLimit: Int
    /// Set once the virtual world has stood still for more than `stillLimit` passes; never cleared.
    private(set) var livelocked = false

    /// Real time starts at the epoch's reading now (a world counting from 0, the monotonic clock itself,
    /// boots its board now, not at the clock's origin); virtual time starts at 0.
    init(pacing: SimWorld.Pacing, epochNs: UInt64?, stillLimit: Int = SimWorld.stillLimit) {
        self.pacing = pacing
        self.stillLimit = stillLimit
        let epoch = epochNs ?? MonotonicClock.nowNs()
        self.epochNs = epoch
        now = pacing == .realTime ? HostNanos(MonotonicClock.nowNs() - epoch) : .zero
    }

    /// The wall clock on the world's scale (real-time pacing).
    func realNow() -> HostNanos { HostNanos(MonotonicClock.nowNs() - epochNs) }

    /// What the host's clock reads: the world's time, never behind the wall in real time.
    var hostNow: HostNanos { pacing == .realTime ? max(now, realNow()) : now }

    /// The instant the next pass runs at, given the earliest pending event: never before now, and now
    /// again while time stands still. Nil once the virtual world has livelocked (the caller returns).
    mutating func nextPass(earliest next: HostNanos) -> HostNanos? {
        let at = frozen && pacing == .virtual ? now : max(next, now)
        if pacing == .virtual {
            stillPasses = at > now ? 0 : stillPasses + 1
            if stillPasses > stillLimit { livelocked = true }
            if livelocked { return nil }
        }
        return at
    }

    /// How long real-time pacing must sleep before the pass at `at`; nil when none (virtual, or already due).
    func sleepBefore(_ at: HostNanos) -> UInt64? {
        guard pacing == .realTime else { return nil }
        let real = realNow()
        return at > real ? at - real : nil
    }

    /// Moves the world's time to `at` (the pass `nextPass` placed).
    mutating func advance(to at: HostNanos) { now = at }

    /// What the host is told once the simulation has livelocked: a link that is gone for good, so a
    /// session ends instead of reconnecting (its pauses wait on virtual time, which no longer moves).
    var livelockError: LinkError {
        .halted(path: "simulated board", reason: "virtual time stood still for \(stillLimit) passes of the simulation: a livelock")
    }
}
