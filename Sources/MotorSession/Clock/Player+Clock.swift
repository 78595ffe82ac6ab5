// Clock tracking during playback: CLOCK exchanges, and re-timing the board (START) when its schedule
// drifts from the estimate, so a board clock several percent off never makes the breath drift.
// Works on the timing part (and the line part's round trip).
// SPDX-License-Identifier: Apache-2.0

import MotorWire

extension Player {
    /// Sends a CLOCK request when one is due (densely at first, then every `steadySyncMs`; see `clockReply` for the early ones).
    func syncClock(at t: UInt64) throws(SessionError) {
        guard let token = timing.clockRequest(at: t, lineIdle: lineIdle(at: t)) else { return }
        try channel.send(.clockRequest(token: token))
    }

    /// Whether a request written at `t` finds the line idle (on a known adapter; see `LinkAwareSync.lineIdle`).
    private func lineIdle(at t: UInt64) -> Bool {
        let last = channel.lastWriteInfo
        return timing.sync.link?.lineIdle(now: t, lastWriteNs: last.ns, lastWriteBytes: last.bytes) ?? false
    }

    /// Exchanges spaced wider than `syncMs` (the line budget) each carry a larger share of the estimate, so
    /// the tracker keeps more seconds of them (set when a tracker is installed: at the start and after a
    /// reconnect; while the exchanges are still dense the tracker spans a few seconds, under either window): by the square root of the spacing's ratio, a compromise
    /// between a crystal (the longer the better) and an RC clock whose rate wanders as it warms (the shorter
    /// the better). At 1 kHz u8 on 115200 baud (47 ms, 1.53x): 31 s instead of 20, so the estimate rests on
    /// about as many exchanges as at 20 ms; scaling by the whole ratio would keep too much of a wandering
    /// rate's past.
    func keepExchangesLonger(spacingMs: Int) {
        let scale = max(1, Double(spacingMs) / Double(options.syncMs)).squareRoot()
        timing.sync.tracker.windowS = ClockTracker.defaultWindowS * scale
        timing.sync.tracker.offsetWindowS = ClockTracker.defaultOffsetWindowS.lowerBound...(ClockTracker.defaultOffsetWindowS.upperBound * scale)
    }

    func clockReply(token: UInt32, tick: UInt64, heldTicks: UInt32 = 0) throws(SessionError) {
        let alone = channel.lastReceiveAlone
        guard let sample = timing.sync.reply(token: token, tick: tick, heldTicks: heldTicks, at: now, alone: alone) else { return }
        line.health.rttUs = Double(sample.rttNs) / 1000
        // The next request of a burst goes now, while the host is awake for this reply anyway, rather than at
        // its own time (before a re-timing START, which would otherwise be on the line ahead of it). To a
        // board that holds requests, on a fast link, it always goes now, held until it is due.
        let t = now
        if let hold = clockHoldMs(at: t) {
            let next = timing.sync.heldRequest(at: t, holdNs: UInt64(hold) * 1_000_000, lineIdle: lineIdle(at: t))
            try channel.send(.clockRequestHeld(token: next, holdMs: UInt8(hold)))
        } else if let next = timing.clockFollowUp(at: t, lineIdle: lineIdle(at: t)) {
            try channel.send(.clockRequest(token: next))
        }
        try? retimeIfNeeded()
    }

    /// How far the board's schedule may stray before it is re-timed: the configured threshold, but never
    /// under two board ticks (a START can only name whole ticks; a coarser threshold would re-time forever).
    /// On a known adapter, no more than the estimate's own uncertainty either: where the exchanges pin the
    /// clock to a few µs (CH340, CP2102, CDC), a schedule up to the threshold off would otherwise stay so for
    /// a whole session.
    /// Before the first frame is felt, only the two ticks, when the estimate is at least as certain as the
    /// one the board's timebase came from: moving a schedule nothing has played from costs a START's bytes
    /// and nothing a person feels, so the first frame lands where the best estimate puts it, not up to a
    /// threshold from it. A less certain estimate keeps the rule above: in an ensemble's 2 s lead the
    /// uncertainty grows as the prefill fills the line, and following it would move a board's start off the
    /// others'.
    var retimeThresholdUs: Double {
        let floor = 2e6 / Double(prepared.info.clockHz)
        // (The envelopes behind the uncertainty are walked only where they are used: at every reply otherwise.)
        let lead = now < timing.sessionStartNs
        let uncertainty = lead || timing.sync.link != nil ? timing.sync.tracker.uncertaintyUs() : nil
        if lead, let u = uncertainty, u <= timing.timebaseUncertaintyUs ?? .infinity { return floor }
        guard timing.sync.link != nil, let uncertainty else {
            return max(options.retimeThresholdUs, floor)
        }
        return max(floor, min(options.retimeThresholdUs, uncertainty))
    }

    /// Moves the board's timebase to the current estimate when they disagree by more than the threshold,
    /// anchored a little ahead of what is playing now.
    func retimeIfNeeded() throws(SessionError) {
        let t = now
        guard let start = timing.retime(at: t, wireBase: stream.wireBase, total: stream.total, thresholdUs: retimeThresholdUs)
        else { return }
        try channel.send(.start(start))
        timing.retimed(start, wireBase: stream.wireBase, at: t)
    }
}
