// The timing part of a `Player`: when each frame is meant to be felt (host time), the board's timebase
// (START) and when to move it as the clock estimate improves, and when CLOCK requests go out.
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import SerialLink

/// When CLOCK requests go out during playback: every `denseMs` before the first frame and for `denseS`
/// seconds after it (the estimate is young), then every `steadyMs` (the line budget's spacing), where up
/// to `steadyBurst - 1` requests after each scheduled one go early: at the reply before them, when it came
/// before their own time (`ClockSync.followUp`).
struct SyncSchedule {
    var denseMs: Int
    var denseS: Double
    var steadyMs: Int
    var steadyBurst = 1
    /// Once steady, on a fast link (`fast` below): requests at least this far apart (0: as `steadyMs`).
    var fastMs = 0

    /// Whether host time `t` is in the dense start of a session whose frame 0 is felt at `sessionStartNs`.
    func dense(at t: UInt64, sessionStartNs: UInt64) -> Bool {
        Double(elapsed(t, since: sessionStartNs)) / 1e9 < denseS || t < sessionStartNs
    }

    /// The spacing of requests at host time `t`; `fast`: the link is fast and steady (see `StreamTiming.fastLink`).
    func intervalNs(at t: UInt64, sessionStartNs: UInt64, fast: Bool = false) -> UInt64 {
        UInt64(dense(at: t, sessionStartNs: sessionStartNs) ? denseMs : fast ? max(steadyMs, fastMs) : steadyMs) * 1_000_000
    }

    /// Requests in a burst that starts with a scheduled one at host time `t`: one while dense.
    func burst(at t: UInt64, sessionStartNs: UInt64) -> Int {
        dense(at: t, sessionStartNs: sessionStartNs) ? 1 : max(1, steadyBurst)
    }
}

/// The session's schedule on the host clock and the board's timebase that carries it to the board clock.
struct StreamTiming {
    /// Frames per second.
    let rate: Int
    /// CLOCK exchanges and the clock estimate they feed.
    var sync: ClockSync
    var schedule: SyncSchedule
    /// Host time at which session frame 0 is meant to be felt.
    var sessionStartNs: UInt64 = 0
    /// The timebase last sent to the board (wire indices).
    private(set) var timebase: Timebase?
    /// Every START sent, as (session index of wire 0, START).
    private(set) var starts: [(wireBase: Int, start: Start)] = []
    /// When the board was last (re)timed, and when a lost START was last sent again.
    private(set) var lastRetimeNs: UInt64 = 0
    /// The estimate's uncertainty (`ClockTracker.uncertaintyUs`) when the timebase was last set.
    private(set) var timebaseUncertaintyUs: Double?
    var lastStartResendNs: UInt64 = 0
    /// STARTs sent to move the timebase while playing.
    private(set) var retimes = 0

    /// When prepare sent its first CLOCK request (host ns).
    let firstClockRequestNs: UInt64?

    init(rate: Int, tracker: ClockTracker, schedule: SyncSchedule, firstClockRequestNs: UInt64? = nil,
         profile: LinkProfile? = nil) {
        self.rate = rate
        self.firstClockRequestNs = firstClockRequestNs
        sync = ClockSync(tracker: tracker, profile: profile)
        self.schedule = schedule
    }

    /// Host time at which session frame `i` is meant to be felt.
    /// (A frame before 0 is felt at the start; one past any reachable time at UInt64.max: never a trap.)
    func intendedNs(_ i: Int) -> UInt64 {
        sessionStartNs.plusSaturating(UInt64(max(0, i)).timesSaturating(1_000_000_000) / UInt64(rate))
    }

    /// The session frame meant to be felt at host time `t` (`before` while the session has not started).
    func playing(at t: UInt64, before: Int) -> Int {
        t < sessionStartNs ? before : Int(clamping: (t - sessionStartNs).timesSaturating(UInt64(rate)) / 1_000_000_000)
    }

    /// Board ticks per frame in 32.32 fixed point for the estimated board clock rate.
    func period(_ e: ClockEstimate) -> UInt64 {
        UInt64(saturating: (e.ticksPerNs * 1e9 / Double(rate) * 4_294_967_296).rounded())
    }

    /// Whether the link is fast and steady: an adapter the session does not know (a pseudo-terminal, a
    /// `sim-board`, a board whose USB bridge was not recognised) on which 45 of the last 50 round trips took
    /// under 2 ms, `ClockSync.fastRoundTripNs` (not all 50: on a busy machine a pty's trip now and then takes
    /// a few ms, and the rule would go off for seconds). Each exchange then pins the board's clock to within a millisecond, where on the
    /// benchmark's 16 ± 8 ms link only the rare fast one tells much: fewer of them serve as well
    /// (`SyncSchedule.fastMs`). A known adapter keeps the spacing its hold was measured with.
    var fastLink: Bool {
        sync.link == nil && schedule.fastMs > schedule.steadyMs && sync.tracker.samples.count >= 50 && sync.fastRoundTrips >= 45
    }

    /// How long a board that holds requests (revision 1.4, `hold_ms`) is to hold the next one, sent at `t` as
    /// a reply came in: on a fast link (`fastLink`) once steady, `fastMs` (the exchange then takes the hold
    /// plus a round trip under 2 ms, within the 50 ms keep-alive); nil otherwise.
    func holdMs(at t: UInt64) -> Int? {
        guard schedule.fastMs > 0, !schedule.dense(at: t, sessionStartNs: sessionStartNs), fastLink else { return nil }
        return min(schedule.fastMs, Int(UInt8.max))
    }

    private func intervalNs(at t: UInt64) -> UInt64 {
        schedule.intervalNs(at: t, sessionStartNs: sessionStartNs, fast: fastLink)
    }

    /// The token of the next request of a burst, sent early at `t` as a reply came in (see `ClockSync.followUp`).
    mutating func clockFollowUp(at t: UInt64, lineIdle: Bool = false) -> UInt32? {
        sync.followUp(at: t, intervalNs: intervalNs(at: t), lineIdle: lineIdle)
    }

    /// The token of a CLOCK request to send at `t`, if one is due (`lineIdle`: see `ClockSync.request`).
    mutating func clockRequest(at t: UInt64, lineIdle: Bool = false) -> UInt32? {
        // (One at a time on a fast link: a pair every 90 ms would leave gaps the keep-alive fills with
        // HEARTBEATs, two wake-ups each; a request every 45 ms is the keep-alive too.)
        sync.request(at: t, intervalNs: intervalNs(at: t), lineIdle: lineIdle,
                     burst: fastLink ? 1 : schedule.burst(at: t, sessionStartNs: sessionStartNs))
    }

    /// Frames were just sent at `t`: on a fast link, a request due within half its spacing goes with them
    /// (the host is awake for them anyway: one wake-up fewer, five a second at 250 Hz).
    mutating func framesSent(at t: UInt64) {
        if sync.nextDueNs < t + UInt64(schedule.fastMs) * 500_000 && fastLink { sync.dueNow(t) }
    }

    /// The START of a new stream whose wire index 0 is session frame `first` (played at its intended time).
    mutating func start(first: Int, now: UInt64) -> Start {
        let estimate = sync.tracker.estimate()!
        let start = Start(anchorIndex: 0, anchorTick: estimate.tick(atHostNs: intendedNs(first)),
                          periodQ32: period(estimate))
        timebase = start.timebase
        starts.append((first, start))
        lastRetimeNs = now
        timebaseUncertaintyUs = sync.tracker.uncertaintyUs()
        return start
    }

    /// The START that moves the board's timebase to the current estimate when they disagree by more than
    /// `thresholdUs` (now, or a second later: a period error), anchored a little ahead of what is playing
    /// at `t`; nil when it need not move, or moved less than 50 ms ago. `wireBase` and `total` are the stream's.
    func retime(at t: UInt64, wireBase: Int, total: Int, thresholdUs: Double) -> Start? {
        guard let tb = timebase, let e = sync.tracker.estimate() else { return nil }
        func wire(_ i: Int) -> UInt32 { UInt32(truncatingIfNeeded: i - wireBase) }
        let anchor = max(playing(at: t, before: wireBase) + rate / 10, wireBase)  // 100 ms ahead: on its way, not yet output
        guard anchor < total else { return nil }
        let desired = e.tick(atHostNs: intendedNs(anchor))
        let current = tb.due(wire(anchor))
        let errorUs = abs(Double(Int64(bitPattern: desired &- current))) / e.ticksPerNs / 1000
        let newPeriod = period(e)
        // Also compare where the two timebases would be a second later (a period error).
        let later = wire(anchor + rate)
        let candidate = Timebase(anchorIndex: wire(anchor), anchorTick: desired, periodQ32: newPeriod)
        let laterUs = abs(Double(Int64(bitPattern: candidate.due(later) &- tb.due(later)))) / e.ticksPerNs / 1000
        guard errorUs > thresholdUs || laterUs > thresholdUs else { return nil }
        guard elapsed(t, since: lastRetimeNs) >= 50_000_000 else { return nil }
        return Start(anchorIndex: wire(anchor), anchorTick: desired, periodQ32: newPeriod)
    }

    /// A re-timing START went out at `t` for the stream whose wire 0 is `wireBase`.
    mutating func retimed(_ start: Start, wireBase: Int, at t: UInt64) {
        timebase = start.timebase
        starts.append((wireBase, start))
        lastRetimeNs = t
        timebaseUncertaintyUs = sync.tracker.uncertaintyUs()
        retimes += 1
    }
}
