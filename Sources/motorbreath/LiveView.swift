// The terminal line during playback: cycle, phase, countdown and an intensity bar.

import Breath
import MotorSession

/// Redraws one status line on stderr (or prints phase changes when stderr is not a terminal).
struct LiveView {
    let plan: BreathPlan?
    let pattern: HapticPattern
    let duration: Double
    let quiet: Bool
    private var lastPhase: String = ""
    private var lastState: String = "playing"

    init(plan: BreathPlan?, pattern: HapticPattern, duration: Double, quiet: Bool) {
        self.plan = plan
        self.pattern = pattern
        self.duration = duration
        self.quiet = quiet
    }

    mutating func show(_ live: LiveStatus) {
        guard !quiet else { return }
        let t = max(0, min(live.elapsed, duration))
        // An AHAP file has no phases: show it as one "pattern" phase counting down to its end.
        let s = plan?.sample(at: t)
            ?? BreathSample(phase: .inhale, phaseRemaining: duration - t, cycle: 1, intensity: pattern.continuousIntensity(at: t))
        let phaseName = plan == nil ? "pattern" : s.phase.rawValue
        let cycles = plan?.cycles ?? 1
        let key = "\(s.cycle)-\(phaseName)"
        if live.elapsed < 0 {
            if Stderr.isTerminal { Stderr.write("\r\u{1B}[2Kstarting in \(format(-live.elapsed)) s") }
            return
        }
        if Stderr.isTerminal {
            let width = 24
            let filled = Int((s.intensity * Double(width)).rounded())
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            var line = "cycle \(s.cycle)/\(cycles)  \(phaseName.padding(8))"
            line += " \(format(s.phaseRemaining).leftPad(5)) s  [\(bar)] \(Int(s.intensity * 100))%"
            if live.state != "playing" {
                line = live.state
            } else {
                if let b = live.board { line += "  buf \(b.fill)  underruns \(b.underruns)" }
                if let r = live.rttUs { line += "  rtt \(format(r / 1000)) ms" }
                if let d = live.driftPPM { line += "  drift \(Int(d.rounded())) ppm" }
                if live.retransmits > 0 { line += "  resent \(live.retransmits)" }
            }
            Stderr.write("\r\u{1B}[2K" + line)
        } else if live.state != "playing" {
            if live.state != lastState { Stderr.write(live.state + "\n") }
        } else if key != lastPhase {
            Stderr.write("cycle \(s.cycle)/\(cycles) \(phaseName) \(format(s.phaseRemaining)) s\n")
        }
        lastPhase = key
        lastState = live.state
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
