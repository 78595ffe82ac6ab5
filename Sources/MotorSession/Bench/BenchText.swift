// The bench report as people read it (`motorbreath bench`): prepare, round trips, clock drift, schedule
// error, the highest sustained frame rate and the failsafe, one line each.
// SPDX-License-Identifier: Apache-2.0

import Foundation

extension BenchReport {
    /// The report as `motorbreath bench` prints it: one line per measurement, every timing figure but the
    /// round trip from the board's own clock.
    public var text: String {
        let r = self
        func us(_ v: Double) -> String { v >= 1000 ? "\(decimals(v / 1000, 2)) ms" : "\(Int(v.rounded())) µs" }
        var lines: [String] = []
        lines.append("bench of \(r.board) on \(r.port)\(r.baud.map { " at \($0) baud" } ?? " (pseudo-terminal)")")
        lines.append("  prepare          \(decimals(r.prepareMs, 1)) ms (HELLO, CONFIGURE, clock sync)")
        lines.append("  round trip       min \(us(r.rttUs.min)), median \(us(r.rttUs.p50)), p99 \(us(r.rttUs.p99)) (\(r.rttUs.count) CLOCK exchanges, \(r.lostReplies) lost)")
        lines.append("  clock drift      \(decimals(r.clockDriftPPM, 1)) ppm (board clock vs host, \(r.clockHz) Hz)")
        lines.append("  schedule error   p50 \(us(r.scheduleErrorUs.p50)), p99 \(us(r.scheduleErrorUs.p99)), max \(us(r.scheduleErrorUs.max)) late, board clock (\(r.framesPlayed)/\(r.framesTotal) frames played, \(r.underruns) underruns)")
        let rates = r.frameRates.map { "\($0.hz) Hz \($0.sustained ? "ok" : "FAILED (\($0.underruns) underruns, \($0.lateArrivals) late)")" }.joined(separator: ", ")
        lines.append("  frame rate       \(r.maxFrameRateHz) Hz sustained (\(rates))\(r.linkBudgetFrameRateHz.map { "; the baud rate allows about \($0) Hz" } ?? "")")
        if let ms = r.failsafeLatencyMs {
            lines.append("  failsafe         motor \(r.failsafeMotorOff ? "off" : "NOT OFF") \(decimals(ms, 1)) ms after the last message (configured \(r.failsafeMs) ms), board clock")
        } else {
            lines.append("  failsafe         NO failsafe STATUS within \(r.failsafeMs * 5 + 1000) ms")
        }
        return lines.joined(separator: "\n")
    }
}

/// `x` with `digits` decimals, as printf's "%.Nf".
private func decimals(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }
