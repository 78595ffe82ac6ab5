// `motorbreath benchmark`'s runs: motorbreath and the naive host-timed streamer playing the same session
// over the same simulated link in virtual time (and once more with bytes corrupted), or both over seeds
// 1...N with live changes judged on the board's true clock. The tables are in Benchmark+Report.swift and
// Benchmark+Seeds.swift.
// SPDX-License-Identifier: Apache-2.0

import BoardAccess
import Foundation
import MotorSession
import SimBoard

/// A benchmark's settings (what `motorbreath benchmark` was given) and its runs. Every run is virtual time
/// and seeded: the same settings give the same figures (the wall times aside).
///
///     var bench = Benchmark(impairments: try LinkImpairments.parse("ftdi"), linkText: "ftdi")
///     bench.minutes = 1
///     let results = try bench.runSideBySide { step in print(step) }
///     print(bench.report(results))
public struct Benchmark: Sendable {
    /// Session length in minutes.
    public var minutes = 10.0
    /// The breath pattern's name (as `BreathPattern.parse` takes it).
    public var pattern = "4-7-8"
    public var frameRate = 250
    /// u8 frames without braking instead of i16 with reverse drive.
    public var u8 = false
    /// The link and board clock, and the words they were given in (quoted in the report).
    public var impairments: LinkImpairments
    public var linkText: String
    /// Byte corruption of the third run of `runSideBySide`.
    public var corrupt = 0.01
    public var seed: UInt64 = 1
    /// With `runSeeds`: live changes a seed (0: none).
    public var latencyChanges = 30

    /// The default benchmark over `impairments`, given as `linkText`.
    public init(impairments: LinkImpairments, linkText: String) {
        self.impairments = impairments
        self.linkText = linkText
    }

    /// The session every run plays, with `seed`.
    public func scenario(seed: UInt64) -> TimingScenario {
        var scenario = TimingScenario(impairments: impairments)
        scenario.minutes = minutes
        scenario.pattern = pattern
        scenario.frameRate = frameRate
        scenario.seed = seed
        scenario.reverse = !u8
        return scenario
    }

    /// "10 min of 4-7-8 in virtual time".
    var minutesText: String { "\(fixed(minutes, minutes < 1 ? 1 : 0)) min of \(pattern) in virtual time" }

    /// motorbreath, the naive streamer, and motorbreath with `corrupt` of the bytes corrupted, in that order;
    /// `progress` is told each run as it starts.
    public func runSideBySide(progress: (String) -> Void) throws -> [TimingResult] {
        let clean = scenario(seed: seed)
        var noisy = clean
        noisy.impairments.corruptPerByte = corrupt
        var results: [TimingResult] = []
        progress("1/3 motorbreath, \(minutesText)")
        results.append(try SimulatedSession.run(clean, recordPlays: false).0)
        progress("2/3 naive host-timed streamer, \(minutesText)")
        results.append(try NaiveStreamer.run(clean))
        progress("3/3 motorbreath, \(fixed(corrupt * 100, 0)) % bytes corrupted, \(minutesText)")
        results.append(try SimulatedSession.run(noisy, recordPlays: false).0)
        return results
    }

    /// Seeds 1...`count`: motorbreath and the naive streamer (no corruption), and the live changes when
    /// `latencyChanges` > 0; `progress` is told each seed as it starts.
    public func runSeeds(_ count: Int, progress: (String) -> Void) throws -> [BenchmarkSeedRow] {
        var rows: [BenchmarkSeedRow] = []
        for s in 1...UInt64(count) {
            progress("seed \(s)/\(count)")
            let mb = try SimulatedSession.run(scenario(seed: s), recordPlays: false).0
            let naive = try NaiveStreamer.run(scenario(seed: s))
            let live = latencyChanges > 0 ? try liveChange(seed: s) : nil
            rows.append(BenchmarkSeedRow(seed: s, startErrorUs: mb.startErrorUs, p99Us: mb.scheduleErrorUs.p99, prepareMs: mb.prepareMs,
                                         syncBeforeStartMs: mb.syncBeforeStartMs, naiveStartErrorUs: naive.startErrorUs,
                                         naiveP99Us: naive.scheduleErrorUs.p99, live: live))
        }
        return rows
    }

    /// One seed's live changes: `motorbreath latency`'s run over the same link, virtual time, the session
    /// told the adapter model as a real port's session is.
    func liveChange(seed: UInt64) throws -> ControlLatencyResult {
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
        } catch { throw BenchmarkError("benchmark failed: live changes, seed \(seed): \(error)") }
    }
}

/// A benchmark run that failed, as one line.
public struct BenchmarkError: Error, CustomStringConvertible, Sendable {
    /// The line, without a program name.
    public var description: String

    /// The error `description`.
    public init(_ description: String) { self.description = description }
}

/// `x` with `digits` decimals, as printf's "%.Nf".
func fixed(_ x: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", x)
}

/// A naive / motorbreath ratio: whole numbers from 10 on, one decimal below, two below 1 (where the naive
/// streamer does better: "0.44x", never a misleading "0x").
func ratio(_ x: Double) -> String { fixed(x, x >= 10 ? 0 : x >= 1 ? 1 : 2) }
