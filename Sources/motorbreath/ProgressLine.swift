// Progress of a long command (bench, benchmark): on a terminal one live line with the step and, where
// the command can tick it, the step's elapsed seconds, fitted to the width; elsewhere one line per step.
// SPDX-License-Identifier: Apache-2.0

import LiveText

final class ProgressLine {
    let label: String
    let showsElapsed: Bool
    private let quiet: Bool
    private let line: LiveLine?
    private var step = ""
    private var stepStart = ContinuousClock.now
    private var nextDraw = ContinuousClock.now

    init(label: String, quiet: Bool = false, showsElapsed: Bool = true) {
        self.label = label
        self.quiet = quiet
        self.showsElapsed = showsElapsed
        line = !quiet && Stderr.isTerminal ? LiveLine() : nil
    }

    func begin(_ text: String) {
        guard !quiet else { return }
        step = text
        stepStart = .now
        if line != nil { draw() } else { Stderr.write("\(label): \(text)\n") }
    }

    /// Redraws the elapsed seconds, at most ten times a second: call it as often as convenient.
    func tick() {
        if line != nil && showsElapsed && !step.isEmpty && ContinuousClock.now >= nextDraw { draw() }
    }

    /// Leaves the last step on its line (with its seconds up to now) and gives the cursor back; safe to
    /// call more than once.
    func finish() {
        guard let line, !step.isEmpty else { return }
        draw()
        step = ""
        line.finish()
    }

    private func draw() {
        nextDraw = .now + .milliseconds(100)
        let text = "\(label): \(step)"
        let d = (ContinuousClock.now - stepStart).components
        let elapsed = showsElapsed ? "  \(tenths(Double(d.seconds) + Double(d.attoseconds) / 1e18)) s" : ""
        // The step's words give way first: the elapsed seconds show that it is still working.
        line?.draw { columns in [Span(Terminal.clip(text, to: columns - Terminal.columns(of: elapsed)) + elapsed)] }
    }
}
