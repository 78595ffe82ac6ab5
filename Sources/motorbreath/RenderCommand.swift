// `motorbreath render`: the breath as duty frames, offline: CSV, JSON, AHAP or an SVG plot.

import ArgumentParser
import Breath
import Foundation

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a breath or an AHAP file to duty frames and write them as CSV, JSON, AHAP or SVG.",
        discussion: """
            CSV columns: time_s, intensity (intended), duty (drive -1...1 as output), felt (modeled motor).
            Examples:
              motorbreath render --pattern 4-7-8 --format svg -o breath.svg
              motorbreath render --ahap calm.ahap --motor lra --format csv
              motorbreath render --pattern box --cues --format ahap -o box.ahap
            """
    )

    @OptionGroup var breath: BreathArguments

    @Option(help: "Frames per second (50...1000).")
    var frameRate: Int = 250

    @Option(help: "Duty resolution: u8, u16, or i16 (signed: allows braking on an H-bridge).")
    var resolution: String = "i16"

    @Option(help: "Motor model: erm or lra.")
    var motor: String = "erm"

    @Flag(help: "Send the intended intensity as the duty, with no motor compensation.")
    var noCompensation = false

    @Option(help: "Output format: csv, json, ahap, svg.")
    var format: String = "csv"

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func run() throws {
        guard (50...1000).contains(frameRate) else { throw fail("--frame-rate must be 50...1000") }
        guard let res = DutyResolution(rawValue: resolution) else { throw fail("--resolution must be u8, u16 or i16") }
        guard ["csv", "json", "ahap", "svg"].contains(format) else { throw fail("--format must be csv, json, ahap or svg") }
        let profile = try motorProfile(motor)
        let built = try breath.build()
        for n in built.notices { Stderr.write("motorbreath: note: \(n)\n") }
        let data: Data
        if format == "ahap" {
            data = AHAPExport.data(built.pattern)
        } else {
            var renderer = FrameRenderer(pattern: built.pattern, duration: built.duration, frameRate: frameRate,
                                         resolution: res, motor: profile, compensate: !noCompensation)
            var frames: [RenderedFrame] = []
            while true {
                let chunk = renderer.renderDetailed(count: 65_536)
                if chunk.isEmpty { break }
                frames += chunk
            }
            switch format {
            case "csv": data = Data(csv(frames).utf8)
            case "json": data = try json(frames, motor: profile)
            default: data = Data(SVGPlot(frames: frames, plan: built.plan, title: breath.ahap ?? breath.pattern,
                                         motor: profile.name, compensated: !noCompensation).render().utf8)
            }
        }
        if let path = output {
            guard FileManager.default.createFile(atPath: path, contents: data) else { throw fail("cannot write \(path)") }
        } else {
            FileHandle.standardOutput.write(data)
        }
    }

    func csv(_ frames: [RenderedFrame]) -> String {
        var text = "time_s,intensity,duty,felt\n"
        text.reserveCapacity(frames.count * 32)
        for f in frames {
            text += "\(fixed(f.time, 4)),\(fixed(f.intensity, 4)),\(fixed(f.drive, 4)),\(fixed(f.felt, 4))\n"
        }
        return text
    }

    func json(_ frames: [RenderedFrame], motor: MotorProfile) throws -> Data {
        let root: [String: Any] = [
            "frame_rate": frameRate, "resolution": resolution, "motor": motor.name, "compensated": !noCompensation,
            "frames": frames.count,
            "time_s": frames.map(\.time), "intensity": frames.map(\.intensity), "duty": frames.map(\.drive),
            "raw": frames.map { Int($0.raw) }, "felt": frames.map(\.felt),
        ]
        return try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])
    }
}

/// `x` with `digits` decimals (no exponent notation).
func fixed(_ x: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", x)
}
