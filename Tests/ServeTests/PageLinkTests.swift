// The page when its link to `motorbreath serve` goes (real-time tier): serve killed and started again, the
// page frozen for 30 s, in headless Chromium (Tests/Browser/serve_link.py), judged on the board's clock.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import TestSupport

/// The page honest about its link: it says so at the breath's place when serve goes, opens the link again
/// when serve is back, and catches up after a freeze, each time drawing the phase the board plays.
@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10)))
struct PageLinkTests {
    /// serve killed (SIGTERM, then SIGKILL) and started again on the same port and board: the page says so
    /// within 2 s and draws the board's phase within 5 s of serve's return; frozen 30 s, it catches up.
    @Test func killedRestartedAndFrozen() throws {
        let r = try run("python3", [repository.appendingPathComponent("Tests/Browser/serve_link.py").path,
                                    "--motorbreath", motorbreathBinary.path], timeout: 240)
        #expect(r.status == 0, "\(r.err)\n\(r.out)")
        let result = try jsonObject(r.out.split(separator: "\n").last.map(String.init) ?? "")
        for signal in ["SIGTERM", "SIGKILL"] {
            let outage = result[signal] as? [String: Any] ?? [:]
            #expect((outage["said_after_kill_ms"] as? Int ?? .max) <= 2000, "\(signal): \(outage)")
            #expect((outage["resumed_after_return_ms"] as? Int ?? .max) <= 5000, "\(signal): \(outage)")
            #expect((outage["phases_compared"] as? Int ?? 0) >= 10, "\(signal): \(outage)")
        }
        let freeze = result["freeze"] as? [String: Any] ?? [:]
        #expect((freeze["resynced"] as? Int ?? 0) >= 1 && (freeze["phases_compared"] as? Int ?? 0) >= 10, "\(freeze)")
    }
}
