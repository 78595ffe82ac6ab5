// Each typed option value parsed in process: good values become the type's value, each edge of its
// range is taken and the value just past it refused, with the exact one line main prints.
// SPDX-License-Identifier: Apache-2.0

import Breath
import SimBoard
import Testing
@testable import motorbreath
import TestSupport

/// A value an option takes (and what it must parse to) or refuses (and the reason on its error line).
struct OptionCase: CustomStringConvertible, Sendable {
    var prefix: String
    var option: String
    var value: String
    var refusal: String?
    /// The value's name in the error line, when it is not the option's.
    var valueName: String?
    var description: String { "\(prefix) \(option) \(value)" }
    var commandLine: String { "\(prefix) \(option) \(value)" }
    static func takes(_ prefix: String, _ option: String, _ value: String) -> OptionCase {
        OptionCase(prefix: prefix, option: option, value: value, refusal: nil, valueName: nil)
    }
    static func refuses(_ prefix: String, _ option: String, _ value: String, _ why: String, valueName: String? = nil) -> OptionCase {
        OptionCase(prefix: prefix, option: option, value: value, refusal: why, valueName: valueName)
    }
    /// The line main prints for it.
    var line: String? {
        refusal.map { "motorbreath: The value '\(value)' is invalid for '\(option) <\(valueName ?? String(option.dropFirst(2)))>': \($0)" }
    }
}

let strengthWhy = "strength is off, subtle, moderate, strong or a number 0...1"
let rampWhy = "a ramp is FROM:TO breaths per minute, each 1...30, e.g. 7:5.5"
let modeWhy = "expected octal permissions that let you read and write, such as 600, 660 or 666"
let spotWhy = "a spot is a word of a-z, 0-9 and dashes, at most 32 letters, e.g. wrist"
let profileWhy = "expected none or a profile name such as 53494d424f415244-wrist (see motorbreath calibrate)"

/// Every typed option: values taken at the edges of its range, values just past them refused.
let optionCases: [OptionCase] = [
    .takes("--simulate", "--pattern", "0.5-0-0.5"), .takes("--simulate", "--pattern", "120-120-120-120"),
    .takes("--simulate", "--pattern", "4-0.1-8"), .takes("--simulate", "--pattern", "SIGH"),
    .refuses("--simulate", "--pattern", "0.49-0-1", "'0.49' s is too short for an inhale: inhale and exhale last 0.5...120 s"),
    .refuses("--simulate", "--pattern", "4-0.09-8", "'0.09' s is too short for a hold: 0 for none, or 0.1...120 s"),
    .refuses("--simulate", "--pattern", "4-7-120.5", "'120.5' s is longer than the 120 s a phase may last"),
    .refuses("--simulate", "--pattern", "4-7-8-1-1", "expected a preset (4-7-8, box, coherent, sigh) or in-hold-out[-holdout] seconds such as 4-7-8"),
    .takes("--simulate", "--ramp", "1:30"), .takes("--simulate", "--ramp", "30:1"),
    .refuses("--simulate", "--ramp", "0.99:5", rampWhy), .refuses("--simulate", "--ramp", "5:30.01", rampWhy),
    .refuses("--simulate", "--ramp", "5:6:7", rampWhy),
    .takes("--simulate", "--easing", "linear"), .takes("--simulate", "--easing", "sine-in-out"),
    .takes("--simulate", "--easing", "smoothstep"), .takes("--simulate", "--easing", "cubic-in-out"),
    .refuses("--simulate", "--easing", "Linear", "expected linear, sine-in-out, smoothstep or cubic-in-out"),
    .takes("--simulate", "--hold", "none"), .takes("--simulate", "--hold", "ticks"), .takes("--simulate", "--hold", "pulse"),
    .refuses("--simulate", "--hold", "tick", "expected none, ticks or pulse"),
    .takes("--simulate", "--motor", "erm"), .takes("--simulate", "--motor", "lra"),
    .refuses("--simulate", "--motor", "LRA", "expected erm or lra"),
    .takes("render", "--motor", "lra"), .refuses("render", "--motor", "dc", "expected erm or lra"),
    .takes("sim-board", "--motor", "lra"), .refuses("sim-board", "--motor", "ERM", "expected erm or lra"),
    .takes("--simulate", "--sim-link", "latency=16ms,jitter=8ms,drift=500ppm"),
    .takes("--simulate", "--sim-link", "drift=50000ppm,corrupt=0.5"), .takes("--simulate", "--sim-link", "drift=-50000ppm"),
    .refuses("--simulate", "--sim-link", "drift=50001ppm", "'50001ppm': drift is parts per million, e.g. 500ppm (-50000...50000, i.e. +-5 %)"),
    .refuses("--simulate", "--sim-link", "corrupt=0.51", "'0.51': corrupt is a probability per byte, 0...0.5"),
    .refuses("--simulate", "--sim-link", "latency=5", "'5': latency is a duration such as 16ms, 500us or 0.1s (at most 10 s)"),
    .takes("latency", "--sim-link", "latency=1ms"), .refuses("latency", "--sim-link", "corrupt=2", "'2': corrupt is a probability per byte, 0...0.5"),
    .takes("benchmark", "--sim-link", "latency=1ms"),
    .takes("--simulate", "--strength", "off"), .takes("--simulate", "--strength", "subtle"),
    .takes("--simulate", "--strength", "moderate"), .takes("--simulate", "--strength", "strong"),
    .takes("--simulate", "--strength", "0"), .takes("--simulate", "--strength", "1"),
    .refuses("--simulate", "--strength", "1.001", strengthWhy), .refuses("--simulate", "--strength", "-0.001", strengthWhy),
    .refuses("--simulate", "--strength", "inf", strengthWhy),
    .takes("--simulate --control-socket /tmp/s", "--control-mode", "600"),
    .takes("--simulate --control-socket /tmp/s", "--control-mode", "0660"),
    .takes("--simulate --control-socket /tmp/s", "--control-mode", "777"),
    .refuses("--simulate --control-socket /tmp/s", "--control-mode", "400", modeWhy, valueName: "mode"),
    .refuses("--simulate --control-socket /tmp/s", "--control-mode", "1000", modeWhy, valueName: "mode"),
    .refuses("--simulate --control-socket /tmp/s", "--control-mode", "688", modeWhy, valueName: "mode"),
    .takes("render", "--format", "csv"), .takes("render", "--format", "svg"), .refuses("render", "--format", "SVG", "expected csv, json, ahap, haptic, hjif, android, android-envelope or svg"),
    .takes("render", "--resolution", "u8"), .takes("render", "--resolution", "u16"), .takes("render", "--resolution", "i16"),
    .takes("sim-board", "--break", "window-edge"),
    .refuses("sim-board", "--break", "x", "expected failsafe-report, window-edge, half-drive-u8, reverse-unannounced, payload-size-uncounted, revision-1.0, revision-1.0-failsafe-on, held-halved, samples-out-of-order or samples-ticks-off-by-a-batch"),
    .takes("calibrate --simulate", "--sim-motor", "slower"),
    .refuses("calibrate --simulate", "--sim-motor", "fast", "expected reference or slower"),
    .takes("calibrate --simulate", "--spot", String(repeating: "a", count: 32)), .takes("calibrate --simulate", "--spot", "left-wrist-2"),
    .refuses("calibrate --simulate", "--spot", String(repeating: "a", count: 33), spotWhy),
    .refuses("calibrate --simulate", "--spot", "Wrist", spotWhy),
    .takes("--simulate", "--profile", "none"), .takes("--simulate", "--profile", "53494d424f415244-wrist"),
    .refuses("--simulate", "--profile", "../x", profileWhy), .refuses("--simulate", "--profile", ".hidden", profileWhy),
    // Numbers: each edge of the range.
    .takes("--simulate", "--frame-rate", "50"), .takes("--simulate", "--frame-rate", "1000"),
    .refuses("--simulate", "--frame-rate", "49", "expected a whole number 50...1000"),
    .refuses("--simulate", "--frame-rate", "1001", "expected a whole number 50...1000"),
    .takes("--simulate", "--minutes", "1440"), .refuses("--simulate", "--minutes", "1440.01", "expected a number more than 0 and at most 1440"),
]

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct TypedOptionTests {
    @Test(arguments: optionCases)
    func takesItsRangeAndRefusesPastItWithOneLine(_ c: OptionCase) {
        let r = parseLine(c.commandLine)
        if c.refusal != nil {
            #expect(r.status == usage, "\(c)")
            #expect(r.line == c.line, "\(c)")
        } else {
            #expect(r.status == 0 && r.line == nil, "\(c): \(r.line ?? "")")
        }
    }

    @Test func valuesBecomeTheirTypes() throws {
        let play = try #require(parsed("--simulate --pattern BOX --ramp 7:5.5 --easing smoothstep --hold ticks --strength subtle --motor lra --sim-link latency=16ms,drift=500ppm", as: Play.self))
        #expect(play.breath.pattern?.name == "box")
        #expect(play.breath.pattern?.phases.map(\.seconds) == [4, 4, 4, 4])
        #expect(play.breath.ramp == BreathRamp(from: 7, to: 5.5))
        #expect(play.breath.easing == .smoothstep)
        #expect(play.breath.hold == .ticks)
        #expect(play.breath.strength == StrengthSetting(text: "subtle", level: 0.3))
        #expect(play.motor == .lra && play.motor?.profile.name == MotorProfile.referenceLRA.name)
        #expect(play.simLink?.impairments.latencyNs == 16_000_000 && play.simLink?.impairments.driftPPM == 500)
        #expect(play.simLink?.text == "latency=16ms,drift=500ppm", "kept as typed: the benchmark prints it")
        let mode = try #require(parsed("--simulate --control-socket /tmp/s --control-mode 0660", as: Play.self))
        #expect(mode.controlMode.bits == 0o660)
        #expect(try #require(parsed("--simulate", as: Play.self)).controlMode == .ownerOnly)
        let profile = try #require(parsed("--simulate --profile none", as: Play.self))
        #expect(profile.calibration.profile == ProfileChoice.none)
        #expect(try #require(parsed("--simulate --profile a-wrist", as: Play.self)).calibration.profile == .named("a-wrist"))
    }

    /// ExpressibleByArgument's init (completion, code that builds values from text) takes what the option takes.
    @Test func theArgumentInitTakesWhatTheOptionTakes() {
        #expect(BreathRamp(argument: "7:5.5") == BreathRamp(from: 7, to: 5.5) && BreathRamp(argument: "0:5") == nil)
        #expect(BreathPattern(argument: "box")?.name == "box" && BreathPattern(argument: "4-7") == nil)
        #expect(StrengthSetting(argument: "1")?.level == 1 && StrengthSetting(argument: "1.5") == nil)
        #expect(SimLink(argument: "corrupt=0.5")?.impairments.corruptPerByte == 0.5 && SimLink(argument: "corrupt=0.6") == nil)
        #expect(SocketMode(argument: "660")?.bits == 0o660 && SocketMode(argument: "066") == nil)
        #expect(Spot(argument: "palm")?.name == "palm" && Spot(argument: "") == nil)
        #expect(ProfileChoice(argument: "none") == ProfileChoice.none && ProfileChoice(argument: "a/b") == nil)
        #expect(Easing(argument: "smoothstep") == .smoothstep && Easing(argument: "Smoothstep") == nil)
        #expect(MotorKind(argument: "lra") == .lra && HoldSignal(argument: "pulse") == .pulse && RenderFormat(argument: "xml") == nil)
    }

    @Test func defaultsAreTheDocumentedOnes() throws {
        let play = try #require(parsed("--simulate", as: Play.self))
        #expect(play.breath.pattern == nil && play.breath.strength == nil && play.motor == nil && play.simLink == nil)
        let render = try #require(parsed("render", as: RenderCommand.self))
        #expect(render.format == .csv && render.resolution == .i16 && render.motor == .erm)
        let latency = try #require(parsed("latency", as: LatencyCommand.self))
        #expect(latency.simLink.text == "latency=16ms,jitter=8ms,drift=500ppm")
        #expect(latency.simLink.impairments == (try LinkImpairments.parse("latency=16ms,jitter=8ms,drift=500ppm")))
        let benchmark = try #require(parsed("benchmark", as: BenchmarkCommand.self))
        #expect(benchmark.pattern.name == "4-7-8" && benchmark.simLink == latency.simLink)
        let calibrate = try #require(parsed("calibrate --simulate", as: CalibrateCommand.self))
        #expect(calibrate.spot == .wrist && calibrate.simMotor == .reference)
        #expect(calibrate.simMotor.model.startThreshold == 0.15 && SimulatedMotor.slower.model.startThreshold == 0.18)
    }
}
