// `motorbreath fidelity`: how well the felt vibration follows the breath, and how fast rendering is.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath
import Calibration
import Foundation

struct FidelityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fidelity",
        abstract: "Measure felt-vs-intended error (with and without motor compensation) and render speed.",
        discussion: """
            Plays the rendered frames on a motor model and compares the modeled felt amplitude with the \
            intended intensity at every frame end. Speed numbers need a release build:
              swift run -c release motorbreath fidelity
            """
    )

    @Option(parsing: .unconditional, help: "Breath pattern to measure (default: 4-7-8).", transform: BreathPattern.value)
    var pattern: BreathPattern = .fourSevenEight

    @Option(parsing: .unconditional, help: "Frames per second (50...1000) (default: 250).", transform: OptionValue.int(50...1000))
    var frameRate: Int = 250

    @Option(parsing: .unconditional, help: "Seconds of rendering to time for each speed figure (more than 0, at most 60) (default: 1.0).",
            transform: OptionValue.double(0...60, above: true))
    var seconds: Double = 1.0

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    func run() throws {
        let rows = FidelityTable.rows(pattern: pattern, frameRate: frameRate)
        let speed = RenderSpeed.measure(pattern: pattern, frameRate: frameRate, seconds: seconds)
        guard json else {
            return print(FidelityTable.lines(rows, speed: speed, pattern: pattern.name, frameRate: frameRate).joined(separator: "\n"))
        }
        let out: [String: Any] = [
            "pattern": pattern.name, "frame_rate": frameRate,
            "fidelity": rows.map { ["name": $0.name, "rms_percent": $0.rms_percent, "worst_percent": $0.worst_percent, "onset_error_ms": $0.onset_error_ms] },
            "frames_per_second": ["streaming_renderer": speed.streaming, "naive_per_frame": speed.naive],
        ]
        print(String(decoding: try JSONSerialization.data(withJSONObject: out, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
    }
}
