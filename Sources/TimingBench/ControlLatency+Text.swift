// A live-change latency run as `motorbreath latency` prints it: as the host reports it, and on a simulated
// board's true clock, with the frames replaced and any wrong duty.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorSession

extension ControlLatencyResult {
    /// One line per figure; the true-clock lines only when `trueClock` (a simulated board) measured them.
    public func lines(trueClock: Bool) -> [String] {
        func row(_ p: Percentiles) -> String { String(format: "p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d changes)", p.p50, p.p99, p.max, p.count) }
        var lines = ["change to motor, as the host reports it: \(row(reportedMs))"]
        if trueClock {
            lines.append("change to motor, on the board's true clock: \(row(trueMs))")
            lines.append("change to its message at the board: \(row(messageMs)); message to motor: \(row(afterArrivalMs))")
            lines.append("changes not taking the board's next frame when their message arrived: \(notFromBoardsNext)")
        }
        lines.append("frames replaced \(framesReplaced), replaced after the board had played them \(replacedTooLate), wrong duties \(wrongDuties)")
        return lines
    }
}
