// The `PlayReport`, built in one place from the player's parts: the stream (what was sent), the board's
// evidence (what was played, lost, late), timing (re-times, the clock), recovery (reconnects), and the
// numbers taken when the session ended (the line's totals, the round trips, how it ended).
// SPDX-License-Identifier: Apache-2.0

import MotorWire

/// How a session ended, and the numbers taken at its end (before the final STOP goes out).
struct PlayOutcome {
    /// Prepare's time before the first stream, ms.
    var prepareMs: Double
    var interrupted = false
    var motorOffAtExit = false
    var error: String?
    /// Taken when the stream ended (nil while it plays).
    var closing: Closing?

    struct Closing {
        var rttUs: Percentiles?
        var scheduleErrorUs: Percentiles?
        var hostRxErrors: Int
        var clockDriftPPM: Double?
        var bytesSent: Int
        var bytesReceived: Int
    }
}

extension Player {
    /// What the session did so far; complete once `play` returned or threw.
    public var report: PlayReport {
        var r = PlayReport()
        r.prepareMs = outcome.prepareMs
        r.framesTotal = stream.total
        r.framesSent = stream.framesSent
        r.retransmits = stream.retransmits
        r.replaced = stream.replaced
        r.framesPlayed = outcome.closing == nil ? evidence.framesPlayed : min(evidence.framesPlayed, stream.total)
        r.framesLost = evidence.framesLost
        r.underruns = evidence.counters.underruns
        // The board counts a replaced value that came after its frame was output as a late frame; it was
        // not late data (the frame played what the host had sent for it), so it is counted apart.
        r.replacedTooLate = edits.superseded.tooLate
        r.lateArrivals = max(0, evidence.counters.lateFrames - edits.superseded.tooLate)
        r.playedLate = evidence.playedLate
        r.dutyMismatches = evidence.dutyMismatches
        r.wrongDuties = evidence.dutyCheck.wrong
        r.outOfOrder = evidence.outOfOrder
        r.unreported = evidence.unreported
        r.naks = evidence.naks
        r.crcErrors = evidence.crcErrors
        r.failsafeTrips = evidence.failsafeTrips
        r.startErrorUs = evidence.startErrorUs
        r.reconnects = recovery.reconnects
        r.reconnectReasons = recovery.reasons
        r.reconnectGapMs = recovery.longestGapMs
        r.framesSkipped = recovery.framesSkipped
        r.hostLongestSilenceMs = recovery.hostLongestSilenceMs
        r.retimes = timing.retimes
        if let c = outcome.closing {
            r.rttUs = c.rttUs
            r.scheduleErrorUs = c.scheduleErrorUs
            r.hostRxErrors = c.hostRxErrors
            r.clockDriftPPM = c.clockDriftPPM
            r.bytesSent = c.bytesSent
            r.bytesReceived = c.bytesReceived
        }
        r.interrupted = outcome.interrupted
        r.motorOffAtExit = outcome.motorOffAtExit
        r.error = outcome.error
        return r
    }

    /// Takes the numbers that are read once, at the end of the session.
    func closeReport() {
        noteHostSilence()
        outcome.closing = PlayOutcome.Closing(
            rttUs: Percentiles(measured: timing.sync.tracker.rtts.map { Double($0) / 1000 }),
            scheduleErrorUs: evidence.lateness.percentiles.measured,
            hostRxErrors: Int(channel.rxErrors.total),
            clockDriftPPM: timing.sync.tracker.estimate()?.driftPPM,
            bytesSent: channel.bytesSent, bytesReceived: channel.bytesReceived)
    }

    /// Folds the channel's longest write gap of the current stream into the report.
    func noteHostSilence() {
        recovery.noteSilence(ns: channel.longestWriteGapNs)
    }
}
