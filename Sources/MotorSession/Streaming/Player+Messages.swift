// What the session does with each board message: STATUS (acknowledgements, lost STARTs, the end of
// the stream, a board that lost its stream), NAK (selective repeat), PLAYED (the board-clock evidence of
// what was output), CLOCK (the clock tracker), INFO (the board restarted).
// SPDX-License-Identifier: Apache-2.0

import MotorWire

extension Player {
    func handle(_ m: BoardMessage) throws(SessionError) {
        switch m {
        case .status(let s):
            // A STATUS from before the board was configured for this stream belongs to an earlier one.
            guard s.tick >= prepared.configuredTick else { return }
            try handleStatus(s)
        case .nak(let n):
            evidence.naks += 1
            switch n.code {
            case .gap:
                // Selective repeat: the board kept what came after the hole; resend just the hole.
                try repair(from: stream.wireBase + Int(n.detail))
            case .bufferFull:
                stream.window.next = min(stream.window.next, stream.wireBase + Int(n.detail))
            case .notConfigured:
                throw .boardLost("the board lost its configuration (its failsafe fired, or it restarted)")
            default:
                throw .refused(n)
            }
        case .played(let p):
            guard p.firstTick >= prepared.configuredTick else { return }
            notePlayed(p)
        case .clock(let token, let tick):
            try clockReply(token: token, tick: tick)
        case .clockHeld(let token, let tick, let held):
            try clockReply(token: token, tick: tick, heldTicks: held)
        case .info(let i) where i.revision != nil:
            break  // a late answer to prepare's HELLO naming this host's revision (a board boots with plain INFO)
        case .info:
            throw .boardLost("the board restarted")
        case .limits:
            break  // asked for only at prepare; a late duplicate answer changes nothing
        case .sensor, .samples:
            try sampled(m)  // the vibration sensor's answers, for a recording when one is on (else dropped)
        }
    }

    private func handleStatus(_ s: Status) throws(SessionError) {
        line.health.board = s
        if s.state == .armed || s.state == .playing { noteLead(s) }
        evidence.status(s, wireBase: stream.wireBase, hostBadCRC: Int(channel.rxErrors.badCRC))
        if !edits.superseded.waiting.isEmpty { noteReplaceAnswer(s) }  // only a live change's REPLACEs wait
        if s.state == .failsafe {
            evidence.failsafeTrips += 1
            throw .boardLost("the board's failsafe fired (it heard nothing for \(prepared.config.failsafeMs) ms) and turned the motor off")
        }
        if s.state == .idle { throw .boardLost("the board restarted") }
        noteEnd(s)
        if s.state == .configured && !stream.end.stopSent, let tb = timing.timebase,
           elapsed(now, since: timing.lastStartResendNs) > repairGuardNs {
            // We started it, but it is still only configured: that START was lost. Send it again.
            try channel.send(.start(Start(anchorIndex: tb.anchorIndex, anchorTick: tb.anchorTick, periodQ32: tb.periodQ32)))
            timing.lastStartResendNs = now
        }
        let expected = stream.wireBase + Int(s.nextExpected)
        if (s.state == .armed || s.state == .playing) && expected < stream.window.highestSent && overdue(expected) {
            try repair(from: expected)  // the first frame it misses should have arrived by now: lost
        }
        if s.nextExpected != 0 || s.state != .configured {
            stream.window.acknowledge(through: expected, at: now)
            if expected > stream.window.next { stream.window.next = expected }  // the board moved past these (underrun)
        }
    }

    /// The board's output lead, in frames: how far its next frame to output is ahead of the one due now.
    private func noteLead(_ s: Status) {
        guard s.state == .playing, let tb = timing.timebase, s.tick >= tb.anchorTick, tb.periodQ32 > 0 else { return }
        let d = s.tick - tb.anchorTick
        // (A tick so far past the anchor that the frame count does not fit, from a board whose clock jumped,
        // says nothing of its lead: the division would trap.)
        guard d >> 32 < tb.periodQ32,
              let frames = Int(exactly: tb.periodQ32.dividingFullWidth((high: d >> 32, low: d << 32)).quotient),
              frames < Int(Int32.max) else { return }
        var dueNow = Int(tb.anchorIndex) + frames
        // The division inverts the timebase's rounding down only to within one frame: at a frame's own tick
        // it can name the frame before, which would read as a lead of one frame that is not there.
        if tb.due(UInt32(truncatingIfNeeded: dueNow + 1)) <= s.tick { dueNow += 1 }
        edits.boardLeadFrames = min(rate / 2, max(edits.boardLeadFrames, Int(s.nextPlay) - dueNow - 1))
    }

    private func notePlayed(_ p: Played) {
        onPlayed?(p)
        let first = stream.wireBase + Int(p.firstIndex)
        noteEvents(p, first: first)
        if p.firstIndex == 0 && first == 0 {
            evidence.startErrorUs = evidence.ticksToUs(Int64(bitPattern: p.firstTick &- (timing.timebase?.due(0) ?? p.firstTick)))
        }
        let count = max(0, min(Int(p.count), stream.total - first))
        var expected = stream.source?.frames(from: first, count: Int(p.count)) ?? []
        edits.superseded.patch(&expected, first: first)  // frames a live change's REPLACE reached too late
        edits.superseded.forget(before: first)
        evidence.played(p, first: first, count: count, playedThrough: stream.window.playedThrough, expected: expected)
        recordDrive(p, values: expected)
        evidence.lastPlayedNs = now
        stream.window.playedThrough = max(stream.window.playedThrough, first + count)
        stream.window.acknowledge(through: stream.window.playedThrough, at: now)  // it played them, so it had them
    }
}
