// The conformance report as `motorbreath conform` prints it: one line per clause (and what was seen), and
// the count at the end.
// SPDX-License-Identifier: Apache-2.0

import Foundation

extension ClauseResult {
    /// "PASS  §4   framing.cobs   title", and the detail on the next line when there is one.
    public var lines: [String] {
        let mark = outcome == "pass" ? "PASS" : outcome == "fail" ? "FAIL" : "N/A "
        let head = "\(mark)  \("§\(section)".padding(toLength: 4, withPad: " ", startingAt: 0)) \(id.padding(toLength: 34, withPad: " ", startingAt: 0)) \(title)"
        return detail.isEmpty ? [head] : [head, "      \(detail)"]
    }
}

extension ConformanceReport {
    /// "31 of 33 clauses passed, 1 failed, 1 not applicable, in 20.1 s".
    public var summary: String {
        String(format: "%d of %d clauses passed, %d failed, %d not applicable, in %.1f s",
               passed, results.count, failed, results.count - passed - failed, seconds)
    }
}
