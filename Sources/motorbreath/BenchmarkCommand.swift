// `motorbreath benchmark`: motorbreath against a naive host-timed streamer, side by side, in virtual time.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import Breath
import Foundation
import MotorSession
import SimBoard
import TimingBench

struct BenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark",
        abstract: "Compare motorbreath's board-clocked playback with a naive host-timed streamer (virtual time).",
        discussion: """
            Plays the same session both ways over the same simulated link and judges every frame against \
            the simulated board's true clock. Virtual time: a 10-minute session takes seconds, and the seed \
            makes it reproducible. Writes a markdown report with -o:
              swift run -c release motorbreath benchmark -o docs/benchmark.md
            """
    )

    @Option(parsing: .unconditional, help: "Session length in minutes (more than 0, at most 1440) (default: 10).",
            transform: OptionValue.double(0...1440, above: true))
    var minutes: Double = 10

    @Option(parsing: .unconditional, help: "Breath pattern (default: 4-7-8).", transform: BreathPattern.value)
    var pattern: BreathPattern = .fourSevenEight

    @Option(parsing: .unconditional, help: "Frames per second (50...1000) (default: 250).", transform: OptionValue.int(50...1000))
    var frameRate: Int = 250

    @Flag(help: "Play u8 frames without braking (default: i16 with reverse drive, as the simulated board has an H-bridge); u8 takes half the wire, which the line budget spends on clock exchanges.")
    var u8 = false

    @Option(help: "Link and board impairments (see --sim-link of play) (default: latency=16ms,jitter=8ms,drift=500ppm).", transform: SimLink.value)
    var simLink: SimLink = .usbSerial

    @Option(parsing: .unconditional, help: "Byte corruption probability for the second motorbreath run (0...0.5, as corrupt= of --sim-link) (default: 0.01).",
            transform: OptionValue.double(0...0.5))
    var corrupt: Double = 0.01

    @Option(parsing: .unconditional, help: "Random seed (default: 1).", transform: OptionValue.uint64)
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: "Run seeds 1...N (N 1...1000; motorbreath and the naive streamer, no corruption) and summarise them: start error p50/p90/max, p99 schedule error, prepare time, and the naive/motorbreath ratios.",
            transform: OptionValue.int(1...1000))
    var seeds: Int?

    @Option(parsing: .unconditional, help: "With --seeds: live changes (strength, pause, resume) a seed, as `motorbreath latency` makes them, judged on the board's true clock (0...1000; 0: none) (default: 30).",
            transform: OptionValue.int(0...1000))
    var latencyChanges: Int = 30

    @Option(name: .shortAndLong, help: "Write the report as markdown to this file.")
    var output: String?

    @Flag(help: "Print JSON instead of the table.")
    var json = false

    func run() throws {
        if let seeds { return try runSeeds(seeds) }
        // Opened before the simulation, so a path that cannot be written fails at once.
        let file = try output.map(OutputFile.open)
        var impairments: LinkImpairments
        impairments = simLink.impairments
        var scenario = TimingScenario(impairments: impairments)
        scenario.minutes = minutes
        scenario.pattern = pattern.name
        scenario.frameRate = frameRate
        scenario.seed = seed
        scenario.reverse = !u8
        var noisy = scenario
        noisy.impairments.corruptPerByte = corrupt
        // The runs cannot be interrupted midway: Ctrl-C gives the cursor back and exits 130 at once.
        Signals.exitRestoringTerminal()
        let progress = ProgressLine(label: "benchmark", quiet: json, showsElapsed: false)
        defer { progress.finish() }
        let minutesText = "\(fixed(minutes, minutes < 1 ? 1 : 0)) min of \(pattern.name) in virtual time"
        var results: [TimingResult] = []
        do {
            progress.begin("1/3 motorbreath, \(minutesText)")
            results.append(try SimulatedSession.run(scenario, recordPlays: false).0)
            progress.begin("2/3 naive host-timed streamer, \(minutesText)")
            results.append(try NaiveStreamer.run(scenario))
            progress.begin("3/3 motorbreath, \(fixed(corrupt * 100, 0)) % bytes corrupted, \(minutesText)")
            results.append(try SimulatedSession.run(noisy, recordPlays: false).0)
        } catch {
            progress.finish()
            throw fail("benchmark failed: \(error)")
        }
        progress.finish()
        if json {
            try printJSON(results)
            return
        }
        let text = report(results, scenario: scenario)
        print(text)
        if let file {
            try file.write(text)
            try file.close()
        }
    }

    func report(_ r: [TimingResult], scenario: TimingScenario) -> String {
        let (mb, naive, noisy) = (r[0], r[1], r[2])
        func ms(_ us: Double) -> String { fixed(us / 1000, us < 10_000 ? 3 : 1) + " ms" }
        func row(_ name: String, _ f: (TimingResult) -> String) -> String {
            "| \(name) | \(f(mb)) | \(f(naive)) | \(f(noisy)) |"
        }
        var lines = [
            "# Timing benchmark: board-clocked playback vs host-timed streaming",
            "",
            "Generated by `motorbreath benchmark --minutes \(fixed(scenario.minutes, 0))\(u8 ? " --u8" : "") --sim-link \(simLink.text) --corrupt \(corrupt) --seed \(seed)`.",
            "",
            "A \(fixed(scenario.minutes, 0))-minute \(scenario.pattern) session at \(scenario.frameRate) Hz over a simulated serial link",
            "(\(simLink.text); " + (scenario.impairments.model.map { "adapter model: \($0.summary)" } ?? "every chunk delayed by latency ± jitter, uniformly, bytes never overtaking each other") + "),",
            "in virtual time. Every frame the board outputs is judged against the simulated board's **true** clock at",
            "the frame's intended host time.",
            "",
            "- **motorbreath**: frames rendered ahead, clock sync (offset and drift), the board plays each frame at",
            "  its scheduled board tick, re-timed as the clock estimate improves.",
            "- **naive**: the host sends each duty byte when it is due; the board applies it on arrival (a hobby",
            "  sketch reading Serial in its loop). The host loop itself is perfectly punctual here (virtual time), which",
            "  flatters it: a real host adds scheduling jitter.",
            "",
            "| | motorbreath | naive | motorbreath, \(fixed(corrupt * 100, 0)) % bytes corrupted |",
            "|---|---|---|---|",
            row("start error") { ms($0.startErrorUs) },
            row("schedule error p50") { ms($0.scheduleErrorUs.p50) },
            row("schedule error p99") { ms($0.scheduleErrorUs.p99) },
            row("schedule error max") { ms($0.scheduleErrorUs.max) },
            row("drift at the end (mean error, last 10 s)") { ms($0.driftAtEndUs) },
            row("frames played / total") { "\($0.framesPlayed) / \($0.frames)" },
            row("underruns") { "\($0.underruns)" },
            row("wrong duties played") { "\($0.wrongDuties)" },
            row("retransmitted frames") { "\($0.retransmits)" },
            row("re-timings (START)") { "\($0.retimes)" },
            row("estimated board drift") { $0.name == "motorbreath" ? "\(fixed($0.clockDriftPPM, 1)) ppm" : "-" },
            row("wall time of the simulation (\(buildKind) build)") { "\(fixed($0.wallSeconds, 1)) s" },
            "",
            "p99 schedule error: naive / motorbreath = **\(ratio(naive.scheduleErrorUs.p99 / max(mb.scheduleErrorUs.p99, 1)))x**;",
            "start error: **\(ratio(naive.startErrorUs / max(mb.startErrorUs, 1)))x**.",
            "",
            "Targets (issue 5): start error <= 0.5 ms, p99 <= 1 ms, 0 underruns, drift <= 1 ms after 10 minutes;",
            "with 1 % corruption: 0 wrong duties and p99 <= 1 ms.",
            "",
        ]
        if naive.wrongDuties > 0 || naive.underruns > 0 {
            lines.append("The naive streamer has no framing or CRC: with a clean link it plays every byte, but any corruption plays wrong duties.")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension BenchmarkCommand {
    /// One row per seed, and the summary the performance goals are stated in.
    struct SeedRow: Encodable {
        var seed: UInt64
        var startErrorUs: Double
        var p99Us: Double
        var prepareMs: Double
        var syncBeforeStartMs: Double
        var naiveStartErrorUs: Double
        var naiveP99Us: Double
        /// Live changes to the motor on the board's true clock, and their messages at the board (nil: not run).
        var live: ControlLatencyResult?
        enum CodingKeys: String, CodingKey {
            case seed, startErrorUs = "start_error_us", p99Us = "p99_us", prepareMs = "prepare_ms"
            case syncBeforeStartMs = "sync_before_start_ms", naiveStartErrorUs = "naive_start_error_us", naiveP99Us = "naive_p99_us"
            case live = "live_change"
        }
    }

    /// What the start error could be at best on this link (ClockLimit): the ideal estimator given the same
    /// time, and the time it would need for a p90 of 100 µs.
    func limitLines(_ l: LinkImpairments, syncMs: Double) -> [String] {
        func bound(_ s: Double) -> (p50: Double, p90: Double) {
            let e = ClockLimit.errorsUs(latencyNs: l.latencyNs, jitterNs: l.jitterNs, seconds: s, spacingMs: 10, trials: 2000, seed: 1)
            return (ClockLimit.quantile(e, 0.5), ClockLimit.quantile(e, 0.9))
        }
        let same = bound(syncMs / 1000)
        let needed = stride(from: 0.5, through: 10, by: 0.5).first { bound($0).p90 <= 100 }
        return [
            "- the limit of this link (ClockLimit: an ideal estimator with CLOCK exchanges every 10 ms for the same \(fixed(syncMs, 0)) ms, the board's rate known, nothing else on the wire): start error p50 \(fixed(same.p50, 0)) µs, p90 \(fixed(same.p90, 0)) µs; a p90 of 100 µs would need \(needed.map { fixed($0, 1) + " s" } ?? "more than 10 s") of exchanges before the first frame",
        ]
    }

    /// The same for an adapter model (AdapterLimit): the estimator that knows each direction's minimum delay,
    /// and the one that assumes symmetric trips; not computed when latency or jitter is added on top.
    func adapterLimitLines(_ model: LinkModel, _ l: LinkImpairments, syncMs: Double) -> [String] {
        guard l.latencyNs == 0, l.jitterNs == 0 else {
            return ["- the limit of this link: not computed (AdapterLimit models the adapter alone, not latency or jitter added to it)"]
        }
        func bound(_ e: AdapterLimit.Estimator) -> (p50: Double, p90: Double) {
            let x = AdapterLimit.errorsUs(model: model, estimator: e, seconds: syncMs / 1000, spacingMs: 10, trials: 2000, seed: 1)
            return (ClockLimit.quantile(x, 0.5), ClockLimit.quantile(x, 0.9))
        }
        let known = bound(.knowsEachDirection), symmetric = bound(.assumesSymmetry)
        let minima = AdapterLimit.Mechanics(model).minimaNs
        return [
            "- the limit of this link (AdapterLimit: ClockLimit's fastest-trip estimator over the \(model.summary) model, CLOCK exchanges every 10 ms for the same \(fixed(syncMs, 0)) ms, the board's rate known, nothing else on the wire): knowing each direction's minimum delay, start error p50 \(fixed(known.p50, 0)) µs, p90 \(fixed(known.p90, 0)) µs; assuming symmetric trips (off by half the difference of the minima, \(fixed(abs(minima.forward - minima.backward) / 2000, 0)) µs, which round trips cannot show), p50 \(fixed(symmetric.p50, 0)) µs, p90 \(fixed(symmetric.p90, 0)) µs",
        ]
    }

    /// The p99 bound over the whole session (SessionLimit: the ideal estimator, rate unknown, re-estimating
    /// as exchanges accumulate), one trial per seed, beside motorbreath's median p99; and motorbreath's start
    /// error p90 against the known-direction start bound (the issue's goals: <= 1.5x and <= 1.25x).
    func sessionLimitLines(_ model: LinkModel, _ l: LinkImpairments, seeds: Int, syncMs: Double, startP90: Double, p99Median: Double) -> [String] {
        guard l.latencyNs == 0, l.jitterNs == 0 else { return [] }
        let q = ClockLimit.quantile
        let p99s = SessionLimit.p99Us(model: model, minutes: minutes, trials: seeds, seed: 1)
        let bound = q(p99s, 0.5)
        let start = AdapterLimit.errorsUs(model: model, estimator: .knowsEachDirection, seconds: syncMs / 1000, spacingMs: 10, trials: 2000, seed: 1)
        let startBound = q(start, 0.9)
        return [
            "- the limit over the whole session (SessionLimit: an ideal estimator re-estimating from every CLOCK exchange so far, 10 ms then 20 ms apart, spread over the adapter's hold, the rate unknown, judged every 20 ms for \(fixed(minutes, minutes < 1 ? 1 : 0)) min, \(seeds) trials): p99 schedule error median \(fixed(bound, 0)) µs (\(fixed(q(p99s, 0), 0))...\(fixed(q(p99s, 1), 0))); motorbreath's median p99 is \(ratio(p99Median / max(bound, 1)))x it (goal <= 1.5x)",
            "- motorbreath's start error p90 against the known-direction bound for the same \(fixed(syncMs, 0)) ms of exchanges (p90 \(fixed(startBound, 0)) µs): \(ratio(startP90 / max(startBound, 1)))x (goal <= 1.25x)",
        ]
    }

    /// One seed's live changes: `motorbreath latency`'s run over the same link, virtual time, the session told
    /// the adapter model as a real port's session is.
    func liveChange(_ impairments: LinkImpairments, seed: UInt64) throws -> ControlLatencyResult {
        let board = BoardConnection.simulated(SimWorld(impairments: impairments, pacing: .virtual, seed: seed))
        defer { board.close() }
        let channel = board.channel()
        var options = ControlLatency.defaultOptions
        options.frameRate = frameRate
        options.allowReverse = !u8
        options.linkProfile = board.linkProfile
        do {
            let prepared = try channel.prepare(options: options)
            return try ControlLatency.run(channel: channel, prepared: prepared, world: board.world, count: latencyChanges, seed: seed, options: options)
        } catch { throw fail("benchmark failed: live changes, seed \(seed): \(error)") }
    }

    /// The live changes over every seed: to the motor on the board's true clock, their messages at the board,
    /// and the goal of issue 28 (the change's own message p99 + one frame + 1 ms).
    func liveLines(_ live: [ControlLatencyResult]) -> [String] {
        guard !live.isEmpty else { return [] }
        let q = ClockLimit.quantile
        let p50s = live.map(\.trueMs.p50), p99s = live.map(\.trueMs.p99), messages = live.map(\.messageMs.p99)
        let frameMs = 1000 / Double(frameRate)
        let margins = live.map { $0.trueMs.p99 - ($0.messageMs.p99 + frameMs + 1) }
        return [
            "- live change to the motor (\(latencyChanges) strength, pause and resume changes a seed, as `motorbreath latency` makes them, on the board's true clock): p50 median \(fixed(q(p50s, 0.5), 1)) ms, p99 median \(fixed(q(p99s, 0.5), 1)) ms, worst seed \(fixed(q(p99s, 1), 1)) ms; its message at the board p99 median \(fixed(q(messages, 0.5), 1)) ms; p99 - (message p99 + one frame + 1 ms), worst seed \(fixed(q(margins, 1), 1)) ms (goal <= 0); not from the board's next frame \(live.map(\.notFromBoardsNext).reduce(0, +)), frames replaced too late \(live.map(\.replacedTooLate).reduce(0, +)), wrong duties \(live.map(\.wrongDuties).reduce(0, +))",
        ]
    }

    /// Which build ran the simulation: its wall times differ about tenfold.
    var buildKind: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    func runSeeds(_ n: Int) throws {
        guard (1...1000).contains(n) else { throw fail("--seeds must be 1...1000") }
        let file = try output.map(OutputFile.open)
        var impairments: LinkImpairments
        impairments = simLink.impairments
        Signals.exitRestoringTerminal()
        let progress = ProgressLine(label: "benchmark", quiet: json, showsElapsed: false)
        defer { progress.finish() }
        var rows: [SeedRow] = []
        for s in 1...UInt64(n) {
            progress.begin("seed \(s)/\(n)")
            var scenario = TimingScenario(impairments: impairments)
            scenario.minutes = minutes
            scenario.pattern = pattern.name
            scenario.frameRate = frameRate
            scenario.seed = s
            scenario.reverse = !u8
            let mb = try SimulatedSession.run(scenario, recordPlays: false).0
            let naive = try NaiveStreamer.run(scenario)
            let live = latencyChanges > 0 ? try liveChange(impairments, seed: s) : nil
            rows.append(SeedRow(seed: s, startErrorUs: mb.startErrorUs, p99Us: mb.scheduleErrorUs.p99, prepareMs: mb.prepareMs,
                                syncBeforeStartMs: mb.syncBeforeStartMs,
                                naiveStartErrorUs: naive.startErrorUs, naiveP99Us: naive.scheduleErrorUs.p99, live: live))
        }
        progress.finish()
        if json { try printJSON(rows) }
        let q = ClockLimit.quantile
        let starts = rows.map(\.startErrorUs), p99s = rows.map(\.p99Us), prepares = rows.map(\.prepareMs)
        let startRatios = rows.map { $0.naiveStartErrorUs / max($0.startErrorUs, 1) }
        var lines = [
            "# Timing benchmark over seeds 1...\(n): board-clocked playback vs host-timed streaming",
            "",
            "Generated by `motorbreath benchmark --seeds \(n) --minutes \(fixed(minutes, minutes < 1 ? 1 : 0)) --frame-rate \(frameRate)\(u8 ? " --u8" : "") --sim-link \(simLink.text)`.",
            "",
            "Each seed: a \(fixed(minutes, minutes < 1 ? 1 : 0))-minute \(pattern.name) at \(frameRate) Hz over the same simulated link, in virtual time,",
            "played by motorbreath and by the naive host-timed streamer; every frame judged against the simulated",
            "board's true clock at the frame's intended host time (see benchmark.md for one seed in detail).",
            "",
            "| seed | start error µs | p99 schedule µs | prepare ms | clock exchanges before the first frame, ms | naive start µs | naive p99 µs |" + (latencyChanges > 0 ? " live change p50 / p99 ms | its message at the board, p99 ms |" : ""),
            "|---|---|---|---|---|---|---|" + (latencyChanges > 0 ? "---|---|" : ""),
        ]
        for r in rows {
            let live = r.live.map { " \(fixed($0.trueMs.p50, 1)) / \(fixed($0.trueMs.p99, 1)) | \(fixed($0.messageMs.p99, 1)) |" } ?? ""
            lines.append("| \(r.seed) | \(fixed(r.startErrorUs, 0)) | \(fixed(r.p99Us, 0)) | \(fixed(r.prepareMs, 0)) | \(fixed(r.syncBeforeStartMs, 0)) | \(fixed(r.naiveStartErrorUs, 0)) | \(fixed(r.naiveP99Us, 0)) |" + live)
        }
        let p99Ratios = rows.map { $0.naiveP99Us / max($0.p99Us, 1) }
        lines += [
            "",
            "- start error: p50 \(fixed(q(starts, 0.5), 0)) µs, p90 \(fixed(q(starts, 0.9), 0)) µs, max \(fixed(q(starts, 1), 0)) µs",
            "- p99 schedule error: median \(fixed(q(p99s, 0.5), 0)) µs (\(fixed(q(p99s, 0), 0))...\(fixed(q(p99s, 1), 0)))",
            "- prepare: median \(fixed(q(prepares, 0.5), 0)) ms (\(fixed(q(prepares, 0), 0))...\(fixed(q(prepares, 1), 0)))",
            "- naive / motorbreath start error: min \(ratio(q(startRatios, 0)))x, median \(ratio(q(startRatios, 0.5)))x",
            "- naive / motorbreath p99 schedule error: min \(ratio(q(p99Ratios, 0)))x, median \(ratio(q(p99Ratios, 0.5)))x",
        ]
        lines += liveLines(rows.compactMap(\.live))
        if let model = impairments.model {
            lines += adapterLimitLines(model, impairments, syncMs: q(rows.map(\.syncBeforeStartMs), 0.5))
            lines += sessionLimitLines(model, impairments, seeds: n, syncMs: q(rows.map(\.syncBeforeStartMs), 0.5), startP90: q(starts, 0.9), p99Median: q(p99s, 0.5))
        } else {
            lines += limitLines(impairments, syncMs: q(rows.map(\.syncBeforeStartMs), 0.5))
        }
        let text = lines.joined(separator: "\n")
        if !json { print(text) }
        if let file {
            try file.write(text + "\n")
            try file.close()
        }
    }
}

/// A naive / motorbreath ratio: whole numbers from 10 on, one decimal below, two below 1 (where the naive
/// streamer does better: "0.44x", never a misleading "0x").
func ratio(_ x: Double) -> String { fixed(x, x >= 10 ? 0 : x >= 1 ? 1 : 2) }
