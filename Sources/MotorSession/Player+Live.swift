// Changes to a breath while it plays: each is made from the first frame the board has not yet output
// (by the time the change can reach it), the frames already sent from there are replaced on the board
// (REPLACE), and the event of its arrival at the motor is reported from the board's own PLAYED evidence.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorWire

/// A change waiting for the board's proof that it reached the motor.
struct PendingEffect {
    var change: BreathChange
    var frame: Int
    var receivedNs: UInt64
}

extension Player {
    /// Makes the changes waiting in `controls`.
    func applyChanges() throws(SessionError) {
        for (change, received) in controls.take() {
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
            // Re-rendering takes time too (a debug build: tens of ms): the board moves on meanwhile.
            let renderFrames = edits.renderFrames(rate: rate)
            let k = replace ? max(firstChangeableFrame + renderFrames, stream.window.playedThrough) : stream.window.highestSent
            // The board has output (or will before this arrives) the breath's last frame: nothing to change.
            if k >= stream.total {
                onEvent?(.refused(change: change, reason: "the breath has ended: nothing is left to change"))
                continue
            }
            let started = now
            if let reason = live.refusal(change, fromFrame: k) {
                onEvent?(.refused(change: change, reason: reason))
                continue
            }
            let first = live.apply(change, fromFrame: k)
            edits.noteApply(ns: elapsed(now, since: started))
            stream.total = live.frameCount
            if replace && first < stream.window.highestSent {
                var at = first
                while at < min(stream.window.highestSent, stream.total) {
                    let n = try sendBlock(from: at, count: min(line.framesPerMessage, stream.window.highestSent - at), replacing: true)
                    guard n > 0 else { break }
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
            edits.pendingEffects.append(PendingEffect(change: change, frame: first, receivedNs: received))
        }
    }

    /// The first frame a change can still reach: the one the board will be about to output when a message
    /// sent now arrives. The slowest recent round trip bounds the one-way delay (a frame replaced after the
    /// board output it would leave it playing a value the host no longer means), plus the board's own
    /// output lead, plus two frames and 3 ms of margin.
    var firstChangeableFrame: Int {
        let t = now
        let playing = timing.playing(at: t, before: stream.wireBase)
        let slowest = timing.sync.tracker.samples.suffix(50).map(\.rttNs).max() ?? 20_000_000
        let transitNs = slowest / 2 + 3_000_000
        let transit = Int((transitNs * UInt64(rate) + 999_999_999) / 1_000_000_000)
        return max(stream.wireBase, playing + transit + edits.boardLeadFrames + 2)
    }

    /// Hands the held events whose tick the board's clock has passed (as estimated, with 2 ms to spare) to
    /// `onEvent`, in order; `all` releases every one (the stream is over). A PLAYED report can show frames
    /// the board handed to its output ahead of their tick (its output lead): an event is never sent before
    /// its frame reaches the motor.
    func releaseEvents(all: Bool = false) {
        guard !edits.heldEvents.isEmpty else { return }
        let boardNow = timing.sync.tracker.estimate().map { e -> UInt64 in
            let tick = e.tick(atHostNs: now), margin = UInt64(e.ticksPerNs * 2e6)
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
        return e.hostNs(atTick: first.tick) + 2_000_000
    }

    /// Events for what a PLAYED report shows was output: phase starts, changes that reached the motor.
    func noteEvents(_ p: Played, first: Int) {
        guard onEvent != nil, let tb = timing.timebase else { return }
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
            guard e.frame < end else { return false }
            let i = max(e.frame, first)
            let at = hostNs(tick(i))
            applied.append(.applied(change: e.change, frame: i, boardTick: tick(i),
                                    latencyMs: (Double(at) - Double(e.receivedNs)) / 1e6, receivedNs: e.receivedNs))
            return true
        }
        applied.forEach(onEvent)
    }
}
