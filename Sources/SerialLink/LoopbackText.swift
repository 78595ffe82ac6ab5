// The loopback self-test as `motorbreath selftest --loopback` prints it: the port, the verified throughput
// against what the baud rate allows, the bytes checked and the round trips.
// SPDX-License-Identifier: Apache-2.0

import Foundation

extension LoopbackReport {
    /// One line each: port and driver, throughput (of what `baud` allows; a pseudo-terminal has no limit),
    /// bytes verified, round trips.
    public func lines(baud: Int) -> [String] {
        func f(_ x: Double) -> String { String(format: "%.0f", x) }
        let limit = theoreticalBytesPerSecond.map { " of \(Int($0)) B/s possible at \(baud) baud (\(f(100 * bytesPerSecond / $0)) %)" } ?? " (pseudo-terminal: no baud limit)"
        var lines = [
            "port        \(port) via \(driver)",
            "throughput  \(Int(bytesPerSecond)) B/s\(limit)",
            "verified    \(bytes) bytes, \(mismatchedBytes) wrong, \(missingBytes) missing",
        ]
        if let mn = rttUs["min"], let p50 = rttUs["p50"], let p99 = rttUs["p99"] {
            lines.append("round trip  min \(f(mn)) µs, median \(f(p50)) µs, p99 \(f(p99)) µs (\(lostPings) of \(pings) lost)")
        }
        return lines
    }
}
