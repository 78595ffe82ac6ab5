// What the suites of the CLOCK exchange rules (ClockBurstTests, FastLinkSyncTests) share: a session in
// virtual time with one option changed, its steady exchanges, and two ways of running the same sessions
// compared on what the simulated board's true clock says once the clock estimate has settled (the settled
// p99 schedule error per seed and its median, and whether the start, which both ways must share, stayed).
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import SimBoard
import Testing
import TimingBench

enum ClockRuleSession {
    /// A `minutes`-long session over `link` (a `--sim-link` string) from `seed`, with `options` changed by `change`
    /// (`watch`: sees the world before the session starts).
    static func run(_ link: String, seed: UInt64, minutes: Double, watch: ((SimWorld) -> Void)? = nil,
                    _ change: (inout SessionOptions) -> Void) throws -> (TimingResult, Player, SimWorld) {
        var scenario = TimingScenario(impairments: try LinkImpairments.parse(link))
        scenario.minutes = minutes
        scenario.seed = seed
        var options = SessionOptions()
        change(&options)
        return try SimulatedSession.run(scenario, options: options, during: watch.map { [(0, $0)] } ?? [], recordPlays: false)
    }

    /// Host time from which a session's exchanges are steady: 4 s after the first frame (the dense start is over).
    static func steadyFromNs(_ player: Player) -> UInt64 { player.sessionStartNs + 4_000_000_000 }

    /// The steady exchanges (`steadyFromNs` on), a second, their count, and how many of them went at the
    /// instant the reply before them came in (virtual time: the same nanosecond; a pair's second request).
    static func steady(_ player: Player) -> (perSecond: Double, count: Int, followUps: Int) {
        let samples = player.clockSamples.filter { $0.sentNs >= steadyFromNs(player) }
        let seconds = Double(samples.last!.sentNs - samples.first!.sentNs) / 1e9
        let followUps = zip(samples, samples.dropFirst()).filter { $1.sentNs == $0.receivedNs }.count
        return (Double(samples.count) / seconds, samples.count, followUps)
    }
}

/// The settled p99 schedule errors (µs) of sessions run two ways (`a` and `b`) over the same seeds.
struct SettledComparison {
    var a: [Double] = []
    var b: [Double] = []
    /// Seeds whose start error differed between the two ways, described.
    var startsDiffer: [String] = []

    var medianA: Double { ClockLimit.quantile(a, 0.5) }
    var medianB: Double { ClockLimit.quantile(b, 0.5) }

    /// Runs `session(seed, true)` and `session(seed, false)` for every seed.
    init(seeds: ClosedRange<UInt64>, _ session: (UInt64, Bool) throws -> TimingResult) rethrows {
        for seed in seeds {
            let x = try session(seed, true), y = try session(seed, false)
            a.append(x.settledScheduleErrorUs.p99)
            b.append(y.settledScheduleErrorUs.p99)
            if x.startErrorUs != y.startErrorUs { startsDiffer.append("seed \(seed): start \(x.startErrorUs) against \(y.startErrorUs) µs") }
        }
    }
}
