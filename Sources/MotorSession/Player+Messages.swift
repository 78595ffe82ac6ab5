// What the session does with each board message: STATUS (acknowledgements, lost STARTs, the end of
// the stream, a board that lost its stream), NAK (selective repeat), PLAYED (the board-clock evidence of
// what was output), CLOCK (the clock tracker), INFO (the board restarted).

import MotorWire

extension Player {
    func handle(_ m: BoardMessage) throws(SessionError) {
        switch m {
        case .status(let s):
            // A STATUS from before the board was configured for this stream belongs to an earlier one.
            guard s.tick >= prepared.configuredTick else { return }
            try handleStatus(s)
        case .nak(let n):
            report.naks += 1
            switch n.code {
            case .gap:
                // Selective repeat: the board kept what came after the hole; resend just the hole.
                try repair(from: wireBase + Int(n.detail))
            case .bufferFull:
                window.next = min(window.next, wireBase + Int(n.detail))
            case .notConfigured:
                throw .boardLost("the board lost its configuration (its failsafe fired, or it restarted)")
            default:
                throw .refused(n)
            }
        case .played(let p):
            guard p.firstTick >= prepared.configuredTick else { return }
            notePlayed(p)
        case .clock(let token, let tick):
            clockReply(token: token, tick: tick)
        case .info:
            throw .boardLost("the board restarted")
        case .limits:
            break  // asked for only at prepare; a late duplicate answer changes nothing
        }
    }

    private func handleStatus(_ s: Status) throws(SessionError) {
        health.board = s
        counters.update(s)
        if s.state == .armed || s.state == .playing {
            noteLead(s)
            dutyCheck.status(nextPlay: wireBase + Int(s.nextPlay), underruns: Int(s.underruns))
            report.wrongDuties = dutyCheck.wrong
        }
        report.underruns = counters.underruns
        report.lateArrivals = counters.lateFrames
        report.crcErrors = counters.crcErrors + Int(channel.rxErrors.badCRC)
        if s.state == .failsafe {
            report.failsafeTrips += 1
            throw .boardLost("the board's failsafe fired (it heard nothing for \(prepared.config.failsafeMs) ms) and turned the motor off")
        }
        if s.state == .idle { throw .boardLost("the board restarted") }
        noteEnd(s)
        if s.state == .configured && !end.stopSent, let tb = timebase, elapsed(now, since: lastStartResendNs) > repairGuardNs {
            // We started it, but it is still only configured: that START was lost. Send it again.
            try channel.send(.start(Start(anchorIndex: tb.anchorIndex, anchorTick: tb.anchorTick, periodQ32: tb.periodQ32)))
            lastStartResendNs = now
        }
        let expected = wireBase + Int(s.nextExpected)
        if (s.state == .armed || s.state == .playing) && expected < window.highestSent && overdue(expected) {
            try repair(from: expected)  // the first frame it misses should have arrived by now: lost
        }
        if s.nextExpected != 0 || s.state != .configured {
            window.acknowledge(through: expected, at: now)
            if expected > window.next { window.next = expected }  // the board moved past these (underrun)
        }
    }

    /// The board's output lead, in frames: how far its next frame to output is ahead of the one due now.
    private func noteLead(_ s: Status) {
        guard s.state == .playing, let tb = timebase, s.tick >= tb.anchorTick, tb.periodQ32 > 0 else { return }
        let d = s.tick - tb.anchorTick
        let dueNow = Int(tb.anchorIndex) + Int(tb.periodQ32.dividingFullWidth((high: d >> 32, low: d << 32)).quotient)
        boardLeadFrames = min(rate / 2, max(boardLeadFrames, Int(s.nextPlay) - dueNow - 1))
    }

    private func notePlayed(_ p: Played) {
        onPlayed?(p)
        let first = wireBase + Int(p.firstIndex)
        noteEvents(p, first: first)
        if first < window.playedThrough { report.outOfOrder += 1 }
        if first > window.playedThrough { report.unreported += first - window.playedThrough }
        if p.firstIndex == 0 && first == 0 {
            report.startErrorUs = ticksToUs(Int64(p.firstTick) - Int64(timebase?.due(0) ?? p.firstTick))
        }
        let count = max(0, min(Int(p.count), total - first))
        window.playedThrough = max(window.playedThrough, first + count)
        lastFramePlayedNs = now
        window.acknowledge(through: window.playedThrough, at: now)  // it played them, so it had them
        report.framesPlayed += count
        report.playedLate += Int(p.lateCount)
        lateness.add(ticksToUs(Int64(p.maxLateTicks)))
        let expected = source.frames(from: first, count: Int(p.count))
        // Frames not played as scheduled: the late ones (when any was output more than half a period after
        // its tick: a retime's tick of jitter is not a loss), and where the duties differ from the schedule
        // the shortest run of underrun zeros that explains it (the whole block when none does).
        let halfPeriodTicks = UInt64(prepared.info.clockHz) / UInt64(2 * rate)
        var lost = UInt64(p.maxLateTicks) > halfPeriodTicks ? Int(p.lateCount) : 0
        if p.dutyCRC != dutyCRC(expected) { lost += DutyCheck.underrunRun(crc: p.dutyCRC, expected: expected) ?? count }
        report.framesLost += min(count, lost)
        if p.dutyCRC != dutyCRC(expected) {
            report.dutyMismatches += 1
            dutyCheck.mismatch(first: first, count: Int(p.count), crc: p.dutyCRC, expected: expected)
            report.wrongDuties = dutyCheck.wrong
        }
    }
}
