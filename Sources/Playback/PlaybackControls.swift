// A control hub on a playback: the session's events to it, its `state` fields from each board's status, the
// `prepared` greeting (naming each board when there are several), changes routed to one board or all,
// and the last event (`finished` or `error` with the report).
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorControl
import MotorSession

extension Playback {
    /// A hub for `content` whose changes go to this playback's boards (keys, stdin, a socket or a page
    /// attach to it). Its pattern, strength and sharpness are the breath's; a fixed pattern is "ahap".
    public func makeHub(for content: PlaybackContent) -> ControlHub {
        let plan = content.plan
        let pattern = plan?.pattern ?? BreathPattern(name: "ahap", inhale: 1, hold: 0, exhale: 1)
        let hub = ControlHub(inbox: inbox, pattern: pattern, strength: plan?.options.strength ?? 1,
                             sharpness: plan?.options.sharpness ?? 0.3)
        if let plan, !content.loops { hub.cycles = LivePlan(pattern: plan.pattern, options: plan.options).cycles }
        return hub
    }

    /// Steers this playback from `hub` and tells it everything: before the first command can arrive.
    /// With several boards the hub routes a board's own change to it and knows each board by name. Every
    /// `prepare` from now on greets the hub's clients (`prepared`); one already made, ``greet()`` does.
    public func attach(_ hub: ControlHub) {
        self.hub = hub
        if let ensemble {
            hub.boards = boards.map(\.name)
            hub.sendToBoards = { [ensemble] changes in ensemble.change(changes) }
        }
    }

    /// The `prepared` event, once every board is prepared (after the hub's sinks are added: a client
    /// added later gets it from the hub's greeting).
    public func greet() {
        guard let hub, !prepared.isEmpty else { return }
        let pattern = hub.pattern.name
        if boards.count == 1 { return hub.greet(ControlEvents.prepared(prepared[0].prepared, pattern: pattern)) }
        let several = ControlEvents.prepared(prepared.enumerated().map { k, b in
            (b.name, b.prepared, k < placements.count
                ? (at: placements[k].spread?.position ?? 0, strength: placements[k].spread?.gain ?? 1, offsetMs: placements[k].offsetMs) : nil)
        }, pattern: pattern)
        if let several { hub.greet(several) }
    }

    /// A session event of board `k` as a line for the hub (several boards: the lead board's, and each
    /// board's answers to its own change).
    func event(_ k: Int, _ event: SessionEvent) {
        defer { onEvent?(k, event) }
        guard let hub else { return }
        let now = boards[k].session.channel.clock.nowNs()
        if ensemble == nil { return hub.emit(hub.line(for: event, nowNs: now)) }
        if let line = hub.line(for: event, nowNs: now, board: boards[k].name) { hub.emit(line) }
    }

    /// Board `k`'s status as the hub's `state` fields: the session's from the lead board, each board's own.
    func noteState(_ k: Int, _ live: LiveStatus, hub: ControlHub) {
        let name = boards[k].name
        let board = k < prepared.count ? prepared[k].prepared.info.displayName : name
        let status = Self.sessionStatus(live, frames: started.steerable(k), board: board)
        if ensemble == nil { return hub.noteSessionState(status) }
        hub.boardAway(name, live.state.hasPrefix("reconnecting"))
        if name == hub.leadBoard { hub.noteSessionState(status) }
        hub.noteBoardState(name, status)
    }

    /// Where the session is, for the `state` event: the breath's cycle and phase (as the pause found them
    /// while paused), the frames, the board and the link's health. `live.elapsed` is breath time.
    public static func sessionStatus(_ live: LiveStatus, frames: (any SteerableFrames)?, board: String) -> SessionStatus {
        var s = SessionStatus(board: board, elapsedS: (live.elapsed * 1000).rounded() / 1000, framesPlayed: live.framesPlayed,
                              framesTotal: live.framesTotal, link: live.state, retransmits: live.retransmits, rttUs: live.rttUs?.rounded())
        if let plan = frames?.plan {
            let t = plan.pausedAt.map { max(0, $0 - 0.001) } ?? max(0, live.elapsed)
            if let sample = plan.sample(at: t) {
                s.cycle = sample.cycle
                s.phase = sample.phase
                s.phaseRemainingS = (sample.phaseRemaining * 1000).rounded() / 1000
            }
            s.cycles = plan.looping ? nil : plan.cycles
        }
        return s
    }

    /// The hub's last event for `result`: `finished` with the report (several boards: each board's), or
    /// `error` with the one-line reason and the same report.
    public func tellEnd(_ result: PlaybackResult) {
        guard let hub else { return }
        let report = ControlEvents.report(result.jsonValue)
        if let failure = result.failure, result.signal == 0 {
            hub.emit(ErrorEvent(message: failure, report: report).line)
        } else {
            hub.emit(FinishedEvent(report: report).line)
        }
    }
}
