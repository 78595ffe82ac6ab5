// Play's live controls, set up from its options: keys in a terminal, JSON lines on stdin/stdout
// (`--control -`), a Unix socket (`--control-socket`); the session's events go to every one of them.
// SPDX-License-Identifier: Apache-2.0

import Breath
import MotorControl
import Foundation
import Glibc
import MotorSession
import MotorWire

final class PlayControls {
    let hub: ControlHub
    private var socket: ControlSocket?
    private var keys: KeyControl?
    private var stdout: StdoutEvents?

    init(hub: ControlHub) { self.hub = hub }

    /// Events of the end: the report, and the socket closed.
    func finished(_ report: PlayReport) {
        hub.emit(ControlEvents.finished(report))
    }

    func failed(_ message: String, report: PlayReport) {
        hub.emit(ControlEvents.line(["event": "error", "message": message, "report": ControlEvents.reportFields(report)]))
    }

    /// Several boards: the last event, `finished` with every board's report (as --json prints it), or
    /// `error` naming the board that failed, with the same report.
    func ended(_ report: some Encodable, error: String?) {
        let object = (try? JSONEncoder().encode(report)).flatMap { try? JSONSerialization.jsonObject(with: $0) } ?? [:]
        if let error {
            hub.emit(ControlEvents.line(["event": "error", "message": error, "report": object]))
        } else {
            hub.emit(ControlEvents.line(["event": "finished", "report": object]))
        }
    }

    func stop() {
        keys?.stop()
        keys = nil
        stdout?.flush(seconds: 5)  // the last events (finished) reach a reader that is still reading
        socket?.close()
        socket = nil
    }

    /// Where the session is, for the `state` event: the breath's cycle and phase (as the pause found them
    /// while paused), the frames, the board and the link's health.
    static func stateFields(_ live: LiveStatus, frames: (any SteerableFrames)?, board: String) -> [String: Any] {
        var f: [String: Any] = ["board": board, "elapsed_s": (live.elapsed * 1000).rounded() / 1000,
                                "frames_played": live.framesPlayed, "frames_total": live.framesTotal,
                                "link": live.state, "retransmits": live.retransmits]
        if let rtt = live.rttUs { f["rtt_us"] = rtt.rounded() }
        if let plan = frames?.plan {
            let t = plan.pausedAt.map { max(0, $0 - 0.001) } ?? max(0, live.elapsed)
            if let s = plan.sample(at: t) {
                f["cycle"] = s.cycle
                f["phase"] = s.phase.rawValue
                f["phase_remaining_s"] = (s.phaseRemaining * 1000).rounded() / 1000
            }
            f["cycles"] = plan.looping ? nil : plan.cycles
        }
        return f
    }

    func attach(socketPath: String?, socketMode: mode_t, stdio: Bool, keys wantKeys: Bool) throws {
        if stdio {
            let out = StdoutEvents()
            stdout = out
            _ = hub.addSink { line in out.send(line) }
            _ = StdinControl(hub: hub) { line in out.send(line) }
        }
        if let socketPath { socket = try ControlSocket(path: socketPath, hub: hub, mode: socketMode) }
        if wantKeys { keys = KeyControl(hub: hub) }
    }

}

extension Play {
    /// The controls this run asked for (nil: none).
    /// `inbox`: where changes go (several boards: the ensemble's); the session's when nil.
    /// `greeting`: the `prepared` event (several boards: naming each); the session's own when nil.
    func startControls(session: BreathSession, plan: BreathPlan?, prepared: Prepared, inbox: ControlInbox? = nil,
                       greeting: ((String) -> String)? = nil, setUp: ((ControlHub) -> Void)? = nil) throws -> PlayControls? {
        let stdio = control == "-"
        let keys = !noKeys && !stdio && !quiet && isatty(0) == 1
        guard stdio || controlSocket != nil || keys else { return nil }
        let pattern = plan?.pattern ?? BreathPattern(name: "ahap", inhale: 1, hold: 0, exhale: 1)
        let hub = ControlHub(inbox: inbox ?? session.controls, pattern: pattern, strength: plan?.options.strength ?? 1,
                             sharpness: plan?.options.sharpness ?? 0.3)
        if let plan, !loop { hub.cycles = LivePlan(pattern: plan.pattern, options: plan.options).cycles }
        let controls = PlayControls(hub: hub)
        setUp?(hub)  // before the first command can arrive
        do { try controls.attach(socketPath: controlSocket, socketMode: mode_t(controlMode.bits), stdio: stdio, keys: keys) } catch { throw fail("\(error)") }
        let clock = session.channel.clock
        if hub.boards.isEmpty { session.onEvent = { hub.emit(hub.line(for: $0, nowNs: clock.nowNs())) } }
        let hello = greeting?(pattern.name) ?? ControlEvents.prepared(prepared, pattern: pattern.name)
        hub.greet(hello)
        return controls
    }
}
