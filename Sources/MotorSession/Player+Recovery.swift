// Reconnecting after a board reset, an unplug or a silent board: reopen (bounded retries), prepare
// again, and resume at the breath's current position, like a haptic engine's reset handler.

import MotorWire
import SerialLink

extension Player {
    func recover(reason: String, onStatus: (LiveStatus) -> Void) throws(SessionError) {
        let lostAt = lastFramePlayedNs
        var lastError = reason
        for attempt in 1...max(1, options.reconnectAttempts) {
            statusText = "reconnecting (attempt \(attempt)): \(lastError)"
            onStatus(LiveStatus(elapsed: (Double(now) - Double(sessionStartNs)) / 1e9, framesPlayed: playedThrough,
                                framesTotal: total, board: nil, retransmits: report.retransmits, rttUs: nil,
                                driftPPM: nil, state: statusText))
            do {
                if let reopen {
                    if attempt > 1 { try pause(ms: options.reconnectPauseMs) }
                    channel.replaceLink(try reopen())
                } else if attempt > 1 {
                    try pause(ms: options.reconnectPauseMs)
                }
                let fresh = try channel.prepare(options: options)
                prepared = fresh
                tracker = fresh.clock
                clockTokens.removeAll()
                // Resume where the breath is by the time frames can play again.
                let resumeNs = now + UInt64(options.startLeadMs) * 1_000_000
                let resume = max(playedThrough, Int((Double(resumeNs) - Double(sessionStartNs)) * Double(rate) / 1e9))
                guard resume < total else {
                    playedThrough = total
                    return
                }
                report.framesSkipped += max(0, resume - playedThrough)
                report.reconnects += 1
                try begin(at: resume)
                let gap = (Double(intendedNs(resume)) - Double(lostAt)) / 1e6
                report.reconnectGapMs = max(report.reconnectGapMs, gap)
                statusText = "playing"
                return
            } catch {
                lastError = "\(error)"
            }
        }
        throw .timeout("the board to come back after \(options.reconnectAttempts) attempts (\(lastError))")
    }

    /// Waits on the link's clock (virtual in simulations) by reading with a timeout.
    func pause(ms: Int) throws(SessionError) {
        let until = now + UInt64(ms) * 1_000_000
        while now < until {
            _ = try? channel.link.read(maxBytes: 4096, timeoutMs: Int((until - now) / 1_000_000) + 1)
        }
    }
}
