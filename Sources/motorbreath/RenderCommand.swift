// `motorbreath render`: the breath as duty frames, offline (CSV, JSON, an SVG plot), or as a pattern file
// (AHAP, .haptic, Android waveform JSON).
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath
import Foundation
import SafeOutput

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a breath or a pattern file to duty frames, or write it as AHAP, .haptic, .hjif or Android JSON.",
        discussion: """
            CSV columns: time_s, intensity (intended), duty (drive -1...1 as output), felt (modeled \
            motor). Output is written as it is rendered, so a 24-hour render needs no more memory than a \
            minute's.

            Examples:
              motorbreath render --pattern 4-7-8 --format svg -o breath.svg
              motorbreath render --ahap calm.ahap --motor lra --format csv
              motorbreath render --pattern box --cues --format ahap -o box.ahap
              motorbreath render --pattern 4-7-8 --format haptic -o breath.haptic
              motorbreath render --ahap tap.haptic --format android
              motorbreath render --pattern box --format hjif -o box.hjif
              motorbreath render --ahap rain.hjif --format android-envelope
            """
    )

    @OptionGroup var breath: BreathArguments

    @OptionGroup(title: "Calibration") var calibration: ProfileArguments

    @Option(parsing: .unconditional, help: "Frames per second (50...1000) (default: 250).", transform: OptionValue.int(50...1000))
    var frameRate: Int = 250

    @Option(help: "Duty resolution: u8, u16, or i16 (signed: allows braking on an H-bridge) (default: i16).",
            transform: DutyResolution.value)
    var resolution: DutyResolution = .i16

    @Option(help: "Motor model: erm or lra (default: erm).", transform: MotorKind.value)
    var motor: MotorKind = .erm

    @Flag(help: "Send the intended intensity as the duty, with no motor compensation.")
    var noCompensation = false

    @Option(help: "Output format: csv, json, ahap, haptic (Meta/Lofelt .haptic), hjif (MPEG-I haptics), android (VibrationEffect.createWaveform timings and amplitudes), android-envelope (BasicEnvelopeBuilder control points), svg (default: csv).", transform: RenderFormat.value)
    var format: RenderFormat = .csv

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output: a regular file is replaced whole (a temporary file renamed over it), a device, FIFO or symlink is written through, - is standard output.")
    var output: String?

    func run() throws {
        Signals.exitRestoringTerminal()  // an interrupted render leaves no temporary file behind
        let calibrated = try calibration.named()
        let profile = calibrated?.motor(or: motor.profile) ?? motor.profile
        let built = try breath.build()
        printNotices(built.notices)
        do {
            // Opened first, so a path that cannot be written fails before any rendering.
            let out = try output.map(OutputFile.open) ?? OutputFile.standardOutput()
            let renderer = FrameRenderer(pattern: built.pattern, duration: built.duration, frameRate: frameRate,
                                         resolution: resolution, motor: profile, compensate: !noCompensation,
                                         feltRange: calibrated?.feltRange)
            try write(built, renderer, profile: profile, calibrated: calibrated?.name, to: out)
            try out.close()
        } catch let error as OutputFileError { throw fail(error) }
    }

    /// The rendering in --format, handed to `out` as it is rendered.
    func write(_ built: BuiltBreath, _ renderer: FrameRenderer, profile: MotorProfile, calibrated: String?, to out: OutputFile) throws {
        switch format {
        case .ahap:
            try AHAPExport.write(built.pattern, duration: built.duration) { piece in try out.write(piece) }
        case .haptic, .hjif:
            let writer = PatternExportFormat(rawValue: format.rawValue)!.writer!
            try writer.write(built.pattern, duration: built.duration, description: "\(breath.title), made by motorbreath") { try out.write($0) }
        case .android, .androidEnvelope:
            try out.write(PatternExportFormat(rawValue: format.rawValue)!.text(built.pattern, duration: built.duration))
        case .csv:
            try FrameText.csv(renderer) { try out.write($0) }
        case .json:
            let settings = ["frame_rate": "\(frameRate)", "resolution": "\"\(resolution.rawValue)\"", "motor": "\"\(profile.name)\"",
                            "compensated": "\(!noCompensation)", "profile": calibrated.map { "\"\($0)\"" } ?? "null"]
            try FrameText.json(renderer, settings: settings) { try out.write($0) }
        case .svg:
            let samples = FrameText.plotSamples(renderer)
            try out.write(SVGPlot(frames: samples.frames, duration: samples.duration, plan: built.plan,
                                  title: breath.title, motor: profile.name, compensated: !noCompensation).render())
        }
    }
}
