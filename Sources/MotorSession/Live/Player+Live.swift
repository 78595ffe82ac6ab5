// Changes to a breath while it plays: each is made from the first frame the board may not yet have output
// when the fastest message could reach it, the frames already sent from there are replaced on the board
// (REPLACE), the board's answer says from which frame they took effect (the first it had not output when
// they arrived), and the event of its arrival at the motor is reported from the board's PLAYED evidence.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorWire

/// A change waiting for the board's proof that it reached the motor.
struct PendingEffect {
    var change: BreathChange
    /// The first frame with the change (once the board's answer to its REPLACE says which).
    var frame: Int
    var receivedNs: UInt64
    var id = 0
    /// Its REPLACE messages are not answered yet: `frame` is where they begin, not yet where they took effect.
    var awaitingBoard = false
}

/// The sizes of one change's REPLACE messages: 8 frames, then twice as many each time, up to a whole
/// message (`perMessage`), never more than `left`.
struct ReplaceSizes {
    let perMessage: Int
    private var size = 8

    init(perMessage: Int) { self.perMessage = max(1, perMessage) }

    /// The next message's frames, with `left` frames still to replace.
    mutating func next(left: Int) -> Int {
        let count = min(size, perMessage, left)
        // Doubled up to a whole message, no further. (Doubled on and on, it overflowed: on a lossy line, 16
        // frames a message over the 1016 frames a lossy line keeps buffered on a pty took 61 or more
        // messages, and 8 doubled 61 times is 2^64: the player trapped, issue 39.)
        size = size > perMessage / 2 ? perMessage : size * 2
        return count
    }
}

extension Player {
    /// Makes the changes waiting in `controls`.
    func applyChanges() throws(SessionError) {
        for (change, received, notBefore) in controls.take() {
            guard let live = stream.source?.steerable else {
                onEvent?(.refused(change: change, reason: "this session plays a fixed pattern (an AHAP file): nothing to change"))
                continue
            }
            // A seek outside the session (past its last cycle: after a finish, the cycle playing) is refused.
            if case .seek(let cycle, _) = change, !live.plan.looping, cycle < 1 || cycle > live.plan.cycles {
                onEvent?(.refused(change: change, reason: "cycle \(cycle) is outside this session (cycles 1...\(live.plan.cycles))"))
                continue
            }
            let replace = prepared.info.capabilities & Info.capReplace != 0
            // Without REPLACE the frames already sent play as they are: change only what is not yet sent.
            // A seek, a finish, a pace or a pattern moves the breath's end or its phases: it starts where its
            // REPLACE surely arrives in time (the stream's STOP and phase events follow from it). Strength,
            // sharpness, pause and resume start from the first frame the board may not yet have output.
            // All but strength and sharpness move the end (a pause makes it open, a resume closes it).
            let sure: Bool, movesEnd: Bool
            switch change {
            case .strength, .sharpness: (sure, movesEnd) = (false, false)
            case .pause, .resume: (sure, movesEnd) = (false, true)
            default: (sure, movesEnd) = (true, true)
            }
            // (`notBefore`: the frame several boards change from together, when later than this board's own.)
            let k = max(replace ? max(sure ? surelyChangeableFrame : firstChangeableFrame, stream.window.playedThrough)
                : stream.window.highestSent, notBefore ?? 0)
            // The board has output (or will before this arrives) the breath's last frame: nothing to change.
            // Nor, for a change that moves the end, when the board may reach the end already announced before
            // the new one arrives: its deferred STOP would halt the stream there, and the frames after it would
            // go to a stopped board (found by ControlPropertyTests, seed 1795775595: a pause on the last frame;
            // the board stopped, a re-timing START re-armed it, and it played the breath again from frame 0).
            // (A sure change starts at the surely changeable frame, so `k >= total` covers it already.)
            if k >= stream.total || (movesEnd && replace && stream.end.stopSent && stream.total < surelyChangeableFrame) {
                onEvent?(.refused(change: change, reason: "the breath has ended: nothing is left to change"))
                continue
            }
            let started = now
            if let reason = live.refusal(change, fromFrame: k) {
                onEvent?(.refused(change: change, reason: reason))
                continue
            }
            // What the board holds for the frames a REPLACE may reach too late: they play these values.
            let sentEnd = stream.window.highestSent
            let held = replace && k < sentEnd ? live.frames(from: k, count: sentEnd - k) : []
            let id = edits.nextChangeID
            edits.nextChangeID += 1
            let first = live.apply(change, fromFrame: k)
            edits.noteApply(ns: elapsed(now, since: started))
            stream.total = live.frameCount
            var replacing = false
            // Only messages that may arrive too late wait for their answer: those from before the frame a
            // message surely reaches in time. (A burst of answers can overflow the board's outbox, which
            // drops the newest: the first messages' answers, the ones that matter, are kept.)
            let atRisk = replace ? surelyChangeableFrame : 0
            if replace && first < sentEnd {
                // Short messages first: the board can take a REPLACE only once its last byte is in, and a
                // full one takes 20 ms of UART at 115200 baud. 8 frames, then twice as many each time: each
                // message is in before the frames of the ones before it have played.
                var at = first, sizes = ReplaceSizes(perMessage: line.framesPerMessage)
                while at < min(sentEnd, stream.total) {
                    let count = sizes.next(left: sentEnd - at)
                    guard let (n, seq) = try sendMessage(from: at, count: count, replacing: true) else { break }
                    // (Past a breath a finish shortened, the board may hold frames the plan no longer has:
                    // only the frames still in it are known, and a block's record covers those.)
                    let old = at - k < held.count ? Array(held[(at - k)..<min(at - k + n, held.count)]) : []
                    if !old.isEmpty && at < atRisk {
                        edits.superseded.sent(seq: seq, first: at, old: old, change: id, now: now)
                        replacing = true
                    }
                    stream.replaced += n
                    at += n
                }
            }
            if stream.end.stopSent {
                // The end moved: tell the board the new one now (its STOP at the old end would halt the
                // stream there, and the frames after it would play late or not at all).
                stream.end = StreamEnd()
                stream.end.stopSeq = try channel.send(.stop(atIndex: wire(stream.total)))
                stream.end.stopSentNs = now
            }
            edits.pendingEffects.append(PendingEffect(change: change, frame: first, receivedNs: received, id: id,
                                                      awaitingBoard: replacing))
        }
    }

    /// The board answered a REPLACE: its values took effect from the first frame it had not output when the
    /// message arrived. A change's effect begins at the first frame one of its messages reached in time.
    func noteReplaceAnswer(_ s: Status) {
        var answers = edits.superseded.answered(seq: s.ackSeq, nextPlay: stream.wireBase + Int(s.nextPlay))
        // An answer not here after the slowest recent round trip and 100 ms more was lost.
        let t = now, patience = (timing.sync.tracker.recentRoundTrips.max() ?? 100_000_000) + 100_000_000
        if t > patience { answers += edits.superseded.expire(sentBefore: t - patience) }
        for a in answers {
            guard let e = edits.pendingEffects.firstIndex(where: { $0.id == a.change && $0.awaitingBoard }) else { continue }
            edits.pendingEffects[e].frame = a.from
            // A block the board had output whole before it arrived: the change begins with a later block.
            let more = edits.superseded.waiting.contains { $0.change == a.change }
            if a.from < a.end || !more { edits.pendingEffects[e].awaitingBoard = false }
        }
    }

    /// The first frame a change may still reach: the one the board will be about to output when a message
    /// sent once the change is rendered arrives by the fastest recent trip (half the fastest round trip,
    /// rounded down), past the board's own output lead. A guess that is early costs nothing but bytes: the
    /// board drops a replacement for a frame it has output, and its answer says where the change took
    /// effect. A late guess would delay the change, so nothing is added for a slow or jittery link, nor a
    /// frame of margin past the board's lead: over a pty to a `sim-board` with a 2 ms lead such a frame is
    /// often still ahead of the board's output, and the change would come a frame late. In virtual time the
    /// board has no lead, and the guess is a frame early there: a frame's bytes a change.
    var firstChangeableFrame: Int {
        let fastest = timing.sync.tracker.recentRoundTrips.min() ?? 0
        return frameAfterRendering(transitFrames: framesIn(ns: fastest / 2), marginFrames: 0)
    }

    /// The first frame a message sent now surely reaches in time: the slowest recent round trip bounds the
    /// one-way delay, plus the board's output lead, plus two frames and 3 ms of margin.
    var surelyChangeableFrame: Int {
        let slowest = timing.sync.tracker.recentRoundTrips.max() ?? 20_000_000
        return frameAfterRendering(transitFrames: framesIn(ns: slowest / 2 + 3_000_000, roundingUp: true), marginFrames: 2)
    }

    /// Frames in `ns` (a one-way trip), at most a minute's: a round trip that took hours (a host that slept)
    /// moves a change a minute on, never overflows the frame arithmetic.
    private func framesIn(ns: UInt64, roundingUp: Bool = false) -> Int {
        let capped = min(ns, 60_000_000_000)
        return Int((capped * UInt64(rate) + (roundingUp ? 999_999_999 : 0)) / 1_000_000_000)
    }

    /// The frame the board is about to output `transitFrames` after a change now has been rendered, past its
    /// output lead and `marginFrames` more (never before the stream's first frame).
    private func frameAfterRendering(transitFrames: Int, marginFrames: Int) -> Int {
        let playing = timing.playing(at: now &+ edits.applyNs, before: stream.wireBase)
        return max(stream.wireBase, playing + transitFrames + edits.boardLeadFrames + marginFrames)
    }

    /// Hands the held events whose tick the board's clock has passed (as estimated, with 2 ms to spare) to
    /// `onEvent`, in order; `all` releases every one (the stream is over). A PLAYED report can show frames
    /// the board handed to its output ahead of their tick (its output lead): an event is never sent before
    /// its frame reaches the motor.
    func releaseEvents(all: Bool = false) {
        guard !edits.heldEvents.isEmpty else { return }
        let boardNow = timing.sync.tracker.estimate().map { e -> UInt64 in
            let tick = e.tick(atHostNs: now), margin = UInt64(saturating: e.ticksPerNs * 2e6)
            return tick > margin ? tick - margin : 0
        }
        while let first = edits.heldEvents.first, all || boardNow.map({ first.tick <= $0 }) ?? true {
            edits.heldEvents.removeFirst()
            onEvent?(first.event)
        }
    }

    /// Host time at which the first held event may go (nil: none held).
    var nextEventReleaseNs: UInt64? {
        guard let first = edits.heldEvents.first, let e = timing.sync.tracker.estimate() else { return nil }
        return e.hostNs(atTick: first.tick).plusSaturating(2_000_000)
    }

    /// Events for what a PLAYED report shows was output: phase starts, changes that reached the motor.
    func noteEvents(_ p: Played, first: Int) {
        guard self.onEvent != nil, let tb = timing.timebase else { return }
        func onEvent(_ event: SessionEvent) {
            switch event {
            case .phase(_, _, _, _, let tick, _), .applied(_, _, let tick, _, _): edits.heldEvents.append((event, tick))
            case .refused: self.onEvent?(event)
            }
        }
        let end = first + Int(p.count)
        func tick(_ i: Int) -> UInt64 { i == first ? p.firstTick : tb.due(wire(i)) }
        func hostNs(_ tick: UInt64) -> UInt64 { timing.sync.tracker.estimate()?.hostNs(atTick: tick) ?? now }
        if let live = stream.source?.steerable {
            for s in live.plan.phaseStarts {
                let i = live.frame(atBreathTime: s.time)
                guard i >= first && i < end && i > edits.lastPhaseEventFrame else { continue }
                edits.lastPhaseEventFrame = i
                onEvent(.phase(kind: s.kind, cycle: s.cycle, pattern: s.pattern, frame: i, boardTick: tick(i), hostNs: hostNs(tick(i))))
            }
        }
        var applied: [SessionEvent] = []  // held after the removal: holding one changes `edits` too
        edits.pendingEffects.removeAll { e in
            guard !e.awaitingBoard, e.frame < end else { return false }
            let i = max(e.frame, first)
            let at = hostNs(tick(i))
            applied.append(.applied(change: e.change, frame: i, boardTick: tick(i),
                                    latencyMs: (Double(at) - Double(e.receivedNs)) / 1e6, receivedNs: e.receivedNs))
            return true
        }
        applied.forEach(onEvent)
    }
}
