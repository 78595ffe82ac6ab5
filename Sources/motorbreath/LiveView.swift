// What play shows while it runs: the status or the breath view on a terminal's live line, one line
// per phase when standard error is not a terminal.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath
import LiveText
import MotorControl
import MotorSession

/// `--view`: status (cycle, phase, countdown, bar, link health) or breath (phase, seconds, a calm bar).
enum ViewKind: String, ExpressibleByArgument, CaseIterable {
    case status, breath
}

final class LiveView {
    let plan: BreathPlan?
    /// A breath that can change while it plays: its phases come from here, and the controls' values.
    var live: (any SteerableFrames)?
    var controls: ControlHub?
    let pattern: HapticPattern
    let duration: Double
    let quiet: Bool
    let kind: ViewKind
    /// nil when stderr is not a terminal (or with --quiet).
    private let line: LiveLine?
    private var lastPhase: String = ""
    private var lastState: String = "playing"

    init(plan: BreathPlan?, pattern: HapticPattern, duration: Double, quiet: Bool, kind: ViewKind = .status) {
        self.plan = plan
        self.pattern = pattern
        self.duration = duration
        self.quiet = quiet
        self.kind = kind
        line = !quiet && Stderr.isTerminal ? LiveLine() : nil
    }

    func show(_ live: LiveStatus) {
        guard !quiet else { return }
        let shown = ShownMoment(elapsed: live.elapsed, live: self.live?.plan, plan: plan, pattern: pattern, duration: duration)
        let s = shown.sample, phaseName = shown.phase, cycles = shown.cycles
        let key = "\(s.cycle)-\(phaseName)"
        if let line {
            draw(on: line, live, s, phaseName, cycles)
        } else if live.state != "playing" {
            if live.state != lastState { Stderr.write(live.state + "\n") }
        } else if key != lastPhase {
            Stderr.write("\(StatusLine.cycleText(s.cycle, of: cycles)) \(phaseName) \(tenths(s.phaseRemaining)) s\n")
        }
        lastPhase = key
        lastState = live.state
    }

    private func draw(on line: LiveLine, _ live: LiveStatus, _ s: BreathSample, _ phaseName: String, _ cycles: Int) {
        if live.elapsed < 0 {
            let text = "starting in \(tenths(-live.elapsed)) s"
            line.draw { [Span(Terminal.clip(text, to: $0))] }
        } else if live.state != "playing" {
            let text = live.state  // "reconnecting, attempt 2": no phase to show while the board is away
            line.draw { [Span(Terminal.clip(text, to: $0))] }
        } else if kind == .breath {
            line.draw { BreathLine.spans(phase: phaseName, remaining: s.phaseRemaining, intensity: s.intensity, columns: $0) }
        } else {
            let values = StatusValues(cycle: s.cycle, cycles: cycles, phase: phaseName, remaining: s.phaseRemaining,
                                      intensity: s.intensity, buffer: live.board.map { Int($0.fill) },
                                      underruns: live.board.map { Int($0.underruns) }, rttMs: live.rttUs.map { $0 / 1000 },
                                      driftPPM: live.driftPPM, resent: live.retransmits, controls: controls?.summary)
            line.draw { [Span(StatusLine.text(values, columns: $0))] }
        }
    }

    /// Leaves the last live line in place, moves below it, and gives the cursor and colours back.
    /// Every exit path calls it (Play defers it); calling it again does nothing.
    func finish() {
        line?.finish()
    }
}
