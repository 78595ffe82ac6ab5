// The terminal line during playback: cycle, phase, countdown and an intensity bar.

import Breath
import MotorSession

/// Redraws one status line on stderr (or prints phase changes when stderr is not a terminal).
struct LiveView {
    let plan: BreathPlan
    let quiet: Bool
    private var lastPhase: String = ""

    init(plan: BreathPlan, quiet: Bool) {
        self.plan = plan
        self.quiet = quiet
    }

    mutating func show(_ live: LiveStatus) {
        guard !quiet else { return }
        let t = max(0, min(live.elapsed, plan.duration))
        let s = plan.sample(at: t)
        let key = "\(s.cycle)-\(s.phase.rawValue)"
        if live.elapsed < 0 {
            if Stderr.isTerminal { Stderr.write("\r\u{1B}[2Kstarting in \(format(-live.elapsed)) s") }
            return
        }
        if Stderr.isTerminal {
            let width = 24
            let filled = Int((s.intensity * Double(width)).rounded())
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            var line = "cycle \(s.cycle)/\(plan.cycles)  \(s.phase.rawValue.padding(8))"
            line += " \(format(s.phaseRemaining).leftPad(5)) s  [\(bar)] \(Int(s.intensity * 100))%"
            if let b = live.board { line += "  buf \(b.fill)" }
            Stderr.write("\r\u{1B}[2K" + line)
        } else if key != lastPhase {
            Stderr.write("cycle \(s.cycle)/\(plan.cycles) \(s.phase.rawValue) \(format(s.phaseRemaining)) s\n")
        }
        lastPhase = key
    }

    func finish() {
        if !quiet && Stderr.isTerminal { Stderr.write("\r\u{1B}[2K") }
    }

    private func format(_ x: Double) -> String {
        let tenths = Int((x * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension String {
    func padding(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
