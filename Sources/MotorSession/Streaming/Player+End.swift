// Ending a stream: once every frame is sent, a deferred STOP (at_index = the end) lets the board finish
// the last frame's whole period by itself; the session is over when the board says it stopped, on its
// own clock, after that period. Only then does the final STOP(now) go out.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

/// Where the end of the current stream stands.
struct StreamEnd {
    /// Host time the deferred STOP was (last) sent; nil before.
    var stopSentNs: UInt64?
    var stopSeq: UInt8 = 0
    /// The board answered the deferred STOP.
    var stopAcknowledged = false
    /// The board reported itself stopped, on its clock at or after the end of the last frame.
    var boardStopped = false
    /// A reconnect found the breath already over: nothing is left to play.
    var nothingLeft = false

    var stopSent: Bool { stopSentNs != nil }
}

extension Player {
    /// Sends the deferred STOP once the last frame is sent, and again if its answer was lost.
    func endStreamIfSent(at t: UInt64) throws(SessionError) {
        guard stream.window.next >= stream.total else { return }
        if let sent = stream.end.stopSentNs, stream.end.stopAcknowledged || elapsed(t, since: sent) < repairGuardNs { return }
        stream.end.stopSeq = try channel.send(.stop(atIndex: wire(stream.total)))
        stream.end.stopSentNs = t
    }

    /// The board tick at which the stream ends (the last frame's period is over).
    var endTick: UInt64? { timing.timebase?.due(wire(stream.total)) }

    /// Notes a STATUS that tells whether the board finished the stream by itself.
    func noteEnd(_ s: Status) {
        guard stream.end.stopSent else { return }
        if s.ackSeq == stream.end.stopSeq { stream.end.stopAcknowledged = true }
        if s.state == .configured, let endTick, s.tick >= endTick { stream.end.boardStopped = true }
    }

    /// Host time at which `finished` may next turn true, once the stream is ending: 2 ms past the end as the
    /// clock estimate puts it, or, until the board has reported the end, a second past it. The loop sleeps until
    /// then (listening: a final report wakes it) rather than looking again and again.
    var endCheckNs: UInt64? {
        guard stream.end.stopSent, let endTick, let e = timing.sync.tracker.estimate() else { return nil }
        let reported = stream.end.boardStopped || stream.window.playedThrough >= stream.total
        return e.hostNs(atTick: endTick).plusSaturating((reported ? 2_000_000 : 1_000_000_000) + 100_000)
    }

    /// The session is over once the board showed it reached the end (the STATUS of its stop, or the PLAYED
    /// of the last frame) and its clock, as estimated, has passed that end (a board with an output lead
    /// reports up to that lead early, and a STOP now before the end would cut the last frame). If both final
    /// reports were lost on the line, a second past the estimated end will do.
    var finished: Bool {
        if stream.end.nothingLeft { return true }
        guard stream.end.stopSent, let endTick, let e = timing.sync.tracker.estimate() else { return false }
        let boardNow = e.tick(atHostNs: now)
        if stream.end.boardStopped || stream.window.playedThrough >= stream.total {
            return boardNow > endTick.plusSaturating(UInt64(saturating: e.ticksPerNs * 2e6))  // 2 ms of margin
        }
        return boardNow > endTick.plusSaturating(UInt64(saturating: e.ticksPerNs * 1e9))
    }
}
