// Getting the stream back after the board lost it (its failsafe fired, it restarted) or the link broke
// (unplugged, the board process gone): prepare again, on the same link when it still works, on a
// reopened port when it does not, and resume where the breath is by then, like a haptic engine's reset
// handler. Bounded retries, each one shown in the live line. Works on the recovery part (and re-prepares
// the others: a fresh clock tracker, the board's buffer and format, a new stream).
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import SerialLink

extension Player {
    /// Recovers from `error` if it is a lost board or a broken link; rethrows anything else. A stop (a
    /// request, `shouldStop`) between attempts returns at once: the playing loop then ends, motor off.
    func recover(from error: SessionError, onStatus: (LiveStatus) -> Void, shouldStop: () -> Bool = { false }) throws(SessionError) {
        var reopenNext: Bool
        switch error {
        case .boardLost:
            reopenNext = false
        case .link(let e):
            switch e {
            case .disconnected, .closed, .writeTimeout, .os: reopenNext = true
            default: throw error
            }
        default:
            throw error
        }
        if reopenNext && reopen == nil { throw error }
        releaseEvents(all: true)  // their ticks are on the board clock that is going away
        noteHostSilence()
        recovery.reasons.append(error.description)
        let lostAt = evidence.lastPlayedNs
        var lastError = error.description
        evidence.endStream()
        edits.superseded.restart()  // a REPLACE on its way will not be answered: its change begins where it was sent
        for i in edits.pendingEffects.indices { edits.pendingEffects[i].awaitingBoard = false }
        for attempt in 1...max(1, options.reconnectAttempts) {
            if shouldStop() || controls.stopRequested { return }
            recovery.state = "reconnecting (attempt \(attempt)/\(options.reconnectAttempts)): \(lastError)"
            var live = liveStatus(at: now)
            live.board = nil
            onStatus(live)
            do throws(SessionError) {
                if attempt > 1 { pause(ms: options.reconnectPauseMs) }
                if reopenNext, let reopen {
                    // Close our own handle first: it holds the port's exclusive lock, so reopening while it is
                    // still open would find the port "busy" every time.
                    channel.closeLink()
                    do throws(LinkError) { channel.replaceLink(try reopen()) } catch { throw SessionError.link(error) }
                    reopenNext = false
                }
                let fresh = try channel.prepare(options: options)
                prepared = fresh
                line.configure(capacity: Int(fresh.info.bufferCapacity), format: fresh.config.dutyFormat)
                evidence.clockHz = fresh.info.clockHz
                timing.sync.restart(tracker: fresh.clock)
                timing.schedule.steadyMs = line.steadySyncMs
                keepExchangesLonger(spacingMs: line.steadySyncMs)
                // Resume where the breath is by the time frames can play again.
                let resumeNs = now + UInt64(options.rejoinLeadMs ?? options.startLeadMs) * 1_000_000
                let playedThrough = stream.window.playedThrough
                let resume = max(playedThrough, Int((Double(resumeNs) - Double(timing.sessionStartNs)) * Double(rate) / 1e9))
                recovery.reconnects += 1
                recovery.state = "playing"
                guard resume < stream.total else {
                    recovery.framesSkipped += max(0, stream.total - playedThrough)
                    evidence.skipped(max(0, stream.total - playedThrough))
                    stream.window.playedThrough = stream.total
                    stream.end.nothingLeft = true
                    return
                }
                recovery.framesSkipped += max(0, resume - playedThrough)
                evidence.skipped(max(0, resume - playedThrough))
                try begin(at: resume)
                let gap = (Double(intendedNs(resume)) - Double(lostAt)) / 1e6
                recovery.longestGapMs = max(recovery.longestGapMs, gap)
                return
            } catch {
                // (A port that vanished is "gone", not a reason to run without a board: no --simulate hint.)
                if case .link(.noSuchPort(let path, _)) = error { lastError = "\(path) is gone" } else { lastError = error.description }
                switch error {
                case .link(.halted): throw error
                case .link: reopenNext = reopen != nil
                // No answer on this handle twice in a row: a fresh handle may help (a USB adapter that
                // re-enumerated under the same name).
                default: if attempt % 2 == 0 && reopen != nil { reopenNext = true }
                }
            }
        }
        throw .timeout("the board to come back after \(options.reconnectAttempts) attempts (last: \(lastError))")
    }

    /// Waits `ms` on the session's clock (virtual in simulations, where reading is what moves time on),
    /// discarding what arrives. On a closed or broken link it sleeps instead.
    func pause(ms: Int) {
        let until = now + UInt64(ms) * 1_000_000
        while now < until {
            let before = now
            let left = elapsed(until, since: before)
            do {
                _ = try channel.link.read(maxBytes: 4096, timeoutMs: Int(left / 1_000_000) + 1)
            } catch {
                if now == before { sleepNs(min(left, 10_000_000)) }
            }
        }
    }
}
