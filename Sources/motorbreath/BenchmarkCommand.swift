// `motorbreath benchmark`: motorbreath against a naive host-timed streamer, side by side, in virtual time.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BoardAccess
import Breath
import SafeOutput
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

    /// The benchmark these options describe.
    var benchmark: Benchmark {
        var b = Benchmark(impairments: simLink.impairments, linkText: simLink.text)
        b.minutes = minutes
        b.pattern = pattern.name
        b.frameRate = frameRate
        b.u8 = u8
        b.corrupt = corrupt
        b.seed = seed
        b.latencyChanges = latencyChanges
        return b
    }

    func run() throws {
        // Opened before the simulation, so a path that cannot be written fails at once.
        let file: OutputFile?
        do { file = try output.map(OutputFile.open) } catch { throw fail(error) }
        // The runs cannot be interrupted midway: Ctrl-C gives the cursor back and exits 130 at once.
        Signals.exitRestoringTerminal()
        let progress = ProgressLine(label: "benchmark", quiet: json, showsElapsed: false)
        defer { progress.finish() }
        if let seeds { return try runSeeds(seeds, progress: progress, file: file) }
        let results: [TimingResult]
        do { results = try benchmark.runSideBySide { progress.begin($0) } } catch {
            progress.finish()
            throw fail("benchmark failed: \(error)")
        }
        progress.finish()
        if json { return try printJSON(results) }
        let text = benchmark.report(results)
        print(text)
        try save(text, to: file)
    }

    func runSeeds(_ n: Int, progress: ProgressLine, file: OutputFile?) throws {
        guard (1...1000).contains(n) else { throw fail("--seeds must be 1...1000") }
        let rows: [BenchmarkSeedRow]
        do { rows = try benchmark.runSeeds(n) { progress.begin($0) } } catch let error as BenchmarkError { throw fail(error) }
        progress.finish()
        if json { try printJSON(rows) }
        let text = benchmark.seedReport(rows)
        if !json { print(text) }
        try save(text + "\n", to: file)
    }

    /// Writes the report to -o's file; if that fails at the end, the report is not lost: it was printed
    /// above, or (with --json) it is printed now, and the line says so.
    func save(_ text: String, to file: OutputFile?) throws {
        guard let file else { return }
        do {
            try file.write(text)
            try file.close()
        } catch {
            if json { print(text, terminator: "") }
            let kept = error.keptAt.map { " and in \($0)" } ?? ""
            throw fail("\(error.description); the report is on standard output\(json ? ", after the JSON" : " above")\(kept)")
        }
    }
}
