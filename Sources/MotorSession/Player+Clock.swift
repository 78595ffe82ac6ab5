// Clock tracking during playback: CLOCK exchanges, and re-timing the board (START) when its schedule
// drifts from the estimate, so a board clock several percent off never makes the breath drift.

import MotorWire

extension Player {
    /// Board ticks per frame in 32.32 fixed point for the estimated board clock rate.
    func period(_ e: ClockEstimate) -> UInt64 {
        UInt64((e.ticksPerNs * 1e9 / Double(rate) * 4_294_967_296).rounded())
    }

    /// Sends a CLOCK request when one is due (densely at first, then every `steadySyncMs`).
    func syncClock(at t: UInt64) throws(SessionError) {
        let dense = Double(elapsed(t, since: sessionStartNs)) / 1e9 < options.denseSyncS || t < sessionStartNs
        let interval = UInt64(dense ? options.denseSyncMs : steadySyncMs) * 1_000_000
        guard let token = sync.request(at: t, intervalNs: interval) else { return }
        try channel.send(.clockRequest(token: token))
    }

    /// Exchanges spaced wider than `syncMs` (the line budget) each carry a larger share of the estimate, so
    /// the tracker keeps more seconds of them (set when a tracker is installed: at the start and after a
    /// reconnect; while the exchanges are still dense the tracker spans a few seconds, under either window): by the square root of the spacing's ratio, a compromise
    /// between a crystal (the longer the better) and an RC clock whose rate wanders as it warms (the shorter
    /// the better). At 1 kHz u8 on 115200 baud (47 ms, 1.53x): 31 s instead of 20, and the p99 schedule
    /// error over seeds 1-20 drops from 367 to 262 µs (20 ms spacing: 181 µs); with the rate wandering
    /// 100 ppm a minute it stays at 375 µs (scaling by the whole ratio: 233 µs, but 488 with wander).
    func keepExchangesLonger(spacingMs: Int) {
        let scale = max(1, Double(spacingMs) / Double(options.syncMs)).squareRoot()
        sync.tracker.windowS = ClockTracker.defaultWindowS * scale
        sync.tracker.offsetWindowS = ClockTracker.defaultOffsetWindowS.lowerBound...(ClockTracker.defaultOffsetWindowS.upperBound * scale)
    }

    func clockReply(token: UInt32, tick: UInt64) {
        guard let sample = sync.reply(token: token, tick: tick, at: now) else { return }
        health.rttUs = Double(sample.rttNs) / 1000
        try? retimeIfNeeded()
    }

    /// How far the board's schedule may stray before it is re-timed: the configured threshold, but never
    /// under two board ticks (a START can only name whole ticks; a coarser threshold would re-time forever).
    var retimeThresholdUs: Double {
        max(options.retimeThresholdUs, 2e6 / Double(prepared.info.clockHz))
    }

    /// Moves the board's timebase to the current estimate when they disagree by more than the threshold,
    /// anchored a little ahead of what is playing now.
    func retimeIfNeeded() throws(SessionError) {
        guard let tb = timebase, let e = sync.tracker.estimate() else { return }
        let t = now
        let playing = t < sessionStartNs ? wireBase : Int((t - sessionStartNs) * UInt64(rate) / 1_000_000_000)
        let anchor = max(playing + rate / 10, wireBase)  // 100 ms ahead: already on its way, not yet output
        guard anchor < total else { return }
        let desired = e.tick(atHostNs: intendedNs(anchor))
        let current = tb.due(wire(anchor))
        let errorUs = abs(Double(Int64(bitPattern: desired &- current))) / e.ticksPerNs / 1000
        let newPeriod = period(e)
        // Also compare where the two timebases would be a second later (a period error).
        let later = wire(anchor + rate)
        let candidate = Timebase(anchorIndex: wire(anchor), anchorTick: desired, periodQ32: newPeriod)
        let laterUs = abs(Double(Int64(bitPattern: candidate.due(later) &- tb.due(later)))) / e.ticksPerNs / 1000
        guard errorUs > retimeThresholdUs || laterUs > retimeThresholdUs else { return }
        guard elapsed(t, since: lastRetimeNs) >= 50_000_000 else { return }
        let start = Start(anchorIndex: wire(anchor), anchorTick: desired, periodQ32: newPeriod)
        try channel.send(.start(start))
        timebase = candidate
        starts.append((wireBase, start))
        lastRetimeNs = t
        report.retimes += 1
    }
}
