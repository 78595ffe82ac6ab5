// The table of docs/performance.md's "Several boards in step": three boards (clocks -5 %, 0, +3 %) on one
// link model, per model and seed, 10 minutes in virtual time. Slow (minutes of CPU): it runs only when
// MOTORBREATH_INSTEP_TABLE is set (`MOTORBREATH_INSTEP_TABLE=1 swift test --filter InStepTableTests`).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(60))) struct InStepTableTests {
    static let enabled = ProcessInfo.processInfo.environment["MOTORBREATH_INSTEP_TABLE"] != nil
    static let links = ["latency=16ms,jitter=8ms", "ftdi", "ftdi-1ms", "ch340", "cdc"]

    @Test(.enabled(if: enabled)) func skewPerLink() throws {
        let seeds = UInt64(ProcessInfo.processInfo.environment["MOTORBREATH_INSTEP_SEEDS"].flatMap(Int.init) ?? 3)
        print("| link | seed | skew p50 µs | skew p99 µs | skew max µs (frame) | from 10 s on: p99 / max µs | boards' schedule p99 µs (-5 %, 0, +3 %) |")
        print("|---|---|---|---|---|---|---|")
        for link in Self.links {
            for seed in 1...seeds {
                let boards = [("slow", -50_000), ("exact", 0), ("fast", 30_000)].enumerated().map { k, b in
                    EnsembleBoard(name: b.0, impairments: try! LinkImpairments.parse(link + ",drift=\(b.1)ppm"), seed: seed * 10 + UInt64(k))
                }
                let r = try EnsembleSession.run(boards, minutes: 10)
                let per = r.boards.map { String(format: "%.0f", $0.scheduleErrorUs.p99) }.joined(separator: ", ")
                print(String(format: "| `%@` | %d | %.0f | %.0f | %.0f (%d) | %.0f / %.0f | %@ |", link, Int(seed), r.skewUs.p50, r.skewUs.p99,
                             r.skewUs.max, r.worstFrame, r.settledSkewUs.p99, r.settledSkewUs.max, per))
                #expect(r.framesCompared > 0)
            }
        }
    }
}
