// The status view of play: cycle, phase, countdown, intensity bar and link health on one line; fields
// are dropped in a fixed order of importance until the line fits the terminal.
// SPDX-License-Identifier: Apache-2.0

/// What the status line shows at one moment.
public struct StatusValues: Sendable {
    public var cycle: Int
    /// 0 for a breath that loops.
    public var cycles: Int
    public var phase: String
    public var remaining: Double
    public var intensity: Double
    public var buffer: Int?
    public var underruns: Int?
    public var rttMs: Double?
    public var driftPPM: Double?
    public var resent: Int = 0
    /// The live controls' values ("intensity 80%  pace 5.5/min"), when the breath can be steered.
    public var controls: String?

    /// Every value of the line at one moment.
    public init(cycle: Int, cycles: Int, phase: String, remaining: Double, intensity: Double, buffer: Int?, underruns: Int?,
                rttMs: Double?, driftPPM: Double?, resent: Int = 0, controls: String? = nil) {
        self.cycle = cycle
        self.cycles = cycles
        self.phase = phase
        self.remaining = remaining
        self.intensity = intensity
        self.buffer = buffer
        self.underruns = underruns
        self.rttMs = rttMs
        self.driftPPM = driftPPM
        self.resent = resent
        self.controls = controls
    }
}

/// The status line: its fields, dropped in a fixed order of importance until it fits.
public enum StatusLine {
    /// Fields that may go, first to go first: link health (drift, round trip, buffer fill, frames
    /// resent, underruns), then the live controls' values, then the percentage (the bar shows it too),
    /// then the cycle count. The phase, the countdown and the bar always stay.
    public enum Field: CaseIterable { case drift, rtt, buffer, resent, underruns, controls, percent, cycle }

    /// The bar's widths: as wide as it gets, and the least it gives up to keep the percentage or the
    /// cycle. With the phase and the countdown alone it may shrink to a stub of 3.
    static let widestBar = 24
    static let readableBar = 12
    static let narrowestBar = 3

    /// The line for `columns` columns: the fewest fields dropped (in importance order) such that the bar
    /// still has the width the remaining fields ask for: link health only next to the widest bar, the
    /// percentage and the cycle next to a readable one. The bar then takes the room left, up to its
    /// widest. A narrower terminal never shows a field a wider one hid. Narrower than the phase, the
    /// countdown and the stub (23 columns): clipped.
    public static func text(_ v: StatusValues, columns: Int) -> String {
        for dropped in 0...Field.allCases.count {
            let kept = Set(Field.allCases.dropFirst(dropped))
            let room = columns - TextColumns.columns(of: compose(v, kept, bar: 0))
            if room >= smallestBar(beside: kept) { return compose(v, kept, bar: min(widestBar, room)) }
        }
        return TextColumns.clip(compose(v, [], bar: narrowestBar), to: columns)
    }

    static func smallestBar(beside kept: Set<Field>) -> Int {
        if !kept.isDisjoint(with: [.drift, .rtt, .buffer, .resent, .underruns]) { return widestBar }
        return kept.isEmpty ? narrowestBar : readableBar
    }

    /// "cycle 3/10", or "cycle 3 (loop)" for a breath that loops (`cycles` 0: no count to show).
    public static func cycleText(_ cycle: Int, of cycles: Int) -> String {
        cycles > 0 ? "cycle \(cycle)/\(cycles)" : "cycle \(cycle) (loop)"
    }

    static func compose(_ v: StatusValues, _ kept: Set<Field>, bar: Int) -> String {
        let filled = max(0, min(bar, Int((v.intensity * Double(bar)).rounded())))
        var line = kept.contains(.cycle) ? cycleText(v.cycle, of: v.cycles) + "  " : ""
        line += "\(v.phase.padding(8)) \(tenths(v.remaining).leftPad(5)) s  ["
        line += String(repeating: "█", count: filled) + String(repeating: "·", count: bar - filled) + "]"
        if kept.contains(.percent) { line += " " + "\(Int((v.intensity * 100).rounded()))%".leftPad(4) }
        if kept.contains(.controls), let c = v.controls { line += "  " + c }
        if kept.contains(.buffer), let b = v.buffer { line += "  buf \(b)" }
        if kept.contains(.underruns), let u = v.underruns { line += "  underruns \(u)" }
        if kept.contains(.rtt), let r = v.rttMs { line += "  rtt \(tenths(r)) ms" }
        if kept.contains(.drift), let d = v.driftPPM { line += "  drift \(Int(d.rounded())) ppm" }
        if kept.contains(.resent), v.resent > 0 { line += "  resent \(v.resent)" }
        return line
    }
}

/// One decimal: 2.35 -> "2.4" (negative values count as 0).
public func tenths(_ x: Double) -> String {
    let t = Int((max(0, x) * 10).rounded())
    return "\(t / 10).\(t % 10)"
}

extension String {
    /// Padded with spaces on the right to `n` characters.
    public func padding(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
    /// Padded with spaces on the left to `n` characters.
    public func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
