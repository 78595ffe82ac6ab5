// Every command line issue 11 found that is refused while parsing (exit 64), parsed in process: the one
// error line main prints. Moved here from EndToEndTests' InputTableTests, which still runs a few of them as
// processes (main prints this same line) and every row whose refusal happens at run time.
// SPDX-License-Identifier: Apache-2.0

import Testing
import TestSupport

struct UsageLine: CustomStringConvertible, Sendable {
    var arguments: String
    var line: String
    var description: String { arguments }
    init(_ arguments: String, _ line: String) {
        self.arguments = arguments
        self.line = line
    }
}

let usageLines: [UsageLine] = [
    // Negative numbers are read as values, then accepted or refused by their range.
    UsageLine("--simulate --cycles -1", invalid("-1", "--cycles", "expected a whole number 1...100000")),
    UsageLine("--simulate --minutes -5", invalid("-5", "--minutes", "expected a number more than 0 and at most 1440")),
    UsageLine("--simulate --frame-rate -250", invalid("-250", "--frame-rate", "expected a whole number 50...1000")),
    UsageLine("--simulate --strength -1", invalid("-1", "--strength", "strength is off, subtle, moderate, strong or a number 0...1")),
    UsageLine("--simulate --seed -1", invalid("-1", "--seed", "expected a whole number 0...18446744073709551615")),
    UsageLine("--port /dev/null --baud -5", invalid("-5", "--baud", "expected a whole number 50...12000000")),
    UsageLine("--port /dev/null --boot-wait -1", invalid("-1", "--boot-wait", "expected a whole number 100...60000")),
    UsageLine("bench --port /dev/null --seconds -1", invalid("-1", "--seconds", "expected a number 1...3600")),
    UsageLine("selftest --loopback --port /dev/null --seconds -1", invalid("-1", "--seconds", "expected a number 0.1...600")),
    UsageLine("fidelity --seconds -1", invalid("-1", "--seconds", "expected a number more than 0 and at most 60")),
    UsageLine("--simulate --pattern -1-2-3", invalid("-1-2-3", "--pattern", "phase lengths cannot be negative")),
    UsageLine("render --pattern=-4-7-8", invalid("-4-7-8", "--pattern", "phase lengths cannot be negative")),
    UsageLine("sim-board --drift-ppm -60000", invalid("-60000", "--drift-ppm", "expected a number -50000...50000")),
    // Ranges, not-a-number, infinity.
    UsageLine("--simulate --strength 2", invalid("2", "--strength", "strength is off, subtle, moderate, strong or a number 0...1")),
    UsageLine("--simulate --strength nan", invalid("nan", "--strength", "strength is off, subtle, moderate, strong or a number 0...1")),
    UsageLine("--simulate --strength loud", invalid("loud", "--strength", "strength is off, subtle, moderate, strong or a number 0...1")),
    UsageLine("--simulate --cycles 0", invalid("0", "--cycles", "expected a whole number 1...100000")),
    UsageLine("--simulate --cycles 1.5", invalid("1.5", "--cycles", "expected a whole number 1...100000")),
    UsageLine("--simulate --cycles 100001", invalid("100001", "--cycles", "expected a whole number 1...100000")),
    UsageLine("--simulate --minutes 0", invalid("0", "--minutes", "expected a number more than 0 and at most 1440")),
    UsageLine("--simulate --minutes inf", invalid("inf", "--minutes", "expected a number more than 0 and at most 1440")),
    UsageLine("--simulate --minutes 1441", invalid("1441", "--minutes", "expected a number more than 0 and at most 1440")),
    UsageLine("--simulate --frame-rate 10", invalid("10", "--frame-rate", "expected a whole number 50...1000")),
    UsageLine("--simulate --frame-rate 250Hz", invalid("250Hz", "--frame-rate", "expected a whole number 50...1000")),
    UsageLine("render --frame-rate 0", invalid("0", "--frame-rate", "expected a whole number 50...1000")),
    UsageLine("fidelity --seconds 0", invalid("0", "--seconds", "expected a number more than 0 and at most 60")),
    UsageLine("fidelity --frame-rate 0", invalid("0", "--frame-rate", "expected a whole number 50...1000")),
    UsageLine("benchmark --minutes 0", invalid("0", "--minutes", "expected a number more than 0 and at most 1440")),
    UsageLine("benchmark --minutes nan", invalid("nan", "--minutes", "expected a number more than 0 and at most 1440")),
    UsageLine("benchmark --corrupt nan", invalid("nan", "--corrupt", "expected a number 0...0.5")),
    UsageLine("benchmark --corrupt 2", invalid("2", "--corrupt", "expected a number 0...0.5")),
    UsageLine("benchmark --frame-rate 0", invalid("0", "--frame-rate", "expected a whole number 50...1000")),
    UsageLine("benchmark --seed -3", invalid("-3", "--seed", "expected a whole number 0...18446744073709551615")),
    UsageLine("benchmark --seeds 0", invalid("0", "--seeds", "expected a whole number 1...1000")),
    UsageLine("latency --changes -1", invalid("-1", "--changes", "expected a whole number 1...10000")),
    UsageLine("palette --simulate --intensity 2", invalid("2", "--intensity", "expected a number 0...1")),
    UsageLine("sim-board --deaf-ms 0", invalid("0", "--deaf-ms", "expected a whole number 1...60000")),
    UsageLine("--simulate --failsafe-ms 5", invalid("5", "--failsafe-ms", "expected a whole number 20...10000")),
    UsageLine("sim-board --drift-ppm 1e12", invalid("1e12", "--drift-ppm", "expected a number -50000...50000")),
    UsageLine("sim-board --drift-ppm nan", invalid("nan", "--drift-ppm", "expected a number -50000...50000")),
    UsageLine("--port /dev/null --baud 1e6", invalid("1e6", "--baud", "expected a whole number 50...12000000")),
    UsageLine("--simulate --sim-link drift=nan", invalid("drift=nan", "--sim-link", "'nan': drift is parts per million, e.g. 500ppm (-50000...50000, i.e. +-5 %)")),
    UsageLine("--simulate --sim-link corrupt=2", invalid("corrupt=2", "--sim-link", "'2': corrupt is a probability per byte, 0...0.5")),
    // Ramps, easings, choices: their own messages, not "bad pattern".
    UsageLine("--simulate --ramp 7", invalid("7", "--ramp", "a ramp is FROM:TO breaths per minute, each 1...30, e.g. 7:5.5")),
    UsageLine("--simulate --ramp 0:5", invalid("0:5", "--ramp", "a ramp is FROM:TO breaths per minute, each 1...30, e.g. 7:5.5")),
    UsageLine("--simulate --ramp 7:nan", invalid("7:nan", "--ramp", "a ramp is FROM:TO breaths per minute, each 1...30, e.g. 7:5.5")),
    UsageLine("--simulate --ramp -7:5", invalid("-7:5", "--ramp", "a ramp is FROM:TO breaths per minute, each 1...30, e.g. 7:5.5")),
    UsageLine("--simulate --easing bouncy", invalid("bouncy", "--easing", "expected linear, sine-in-out, smoothstep or cubic-in-out")),
    UsageLine("--simulate --motor dc", invalid("dc", "--motor", "expected erm or lra")),
    UsageLine("render --format xml", invalid("xml", "--format", "expected csv, json, ahap, haptic, hjif, android, android-envelope or svg")),
    UsageLine("render --resolution u4", invalid("u4", "--resolution", "expected u8, u16 or i16")),
    UsageLine("sim-board --motor dc", invalid("dc", "--motor", "expected erm or lra")),
    // Degenerate and malformed patterns.
    UsageLine("--simulate --pattern 0.001-0-0.001",
              invalid("0.001-0-0.001", "--pattern", "'0.001' s is too short for an inhale: inhale and exhale last 0.5...120 s")),
    UsageLine("--simulate --pattern 4-0.01-8",
              invalid("4-0.01-8", "--pattern", "'0.01' s is too short for a hold: 0 for none, or 0.1...120 s")),
    UsageLine("--simulate --pattern 0-0-0", invalid("0-0-0", "--pattern", "'0' s is too short for an inhale: inhale and exhale last 0.5...120 s")),
    UsageLine("--simulate --pattern 4-x-8", invalid("4-x-8", "--pattern", "'x' is not a number of seconds")),
    UsageLine("--simulate --pattern 4-nan-8", invalid("4-nan-8", "--pattern", "'nan' is not a number of seconds")),
    UsageLine("--simulate --pattern 4-7-1e9", invalid("4-7-1e9", "--pattern", "'1e9' s is longer than the 120 s a phase may last")),
    UsageLine("fidelity --pattern 4-7",
              invalid("4-7", "--pattern", "expected a preset (4-7-8, box, coherent, sigh) or in-hold-out[-holdout] seconds such as 4-7-8")),
    UsageLine("benchmark --pattern 0.001-0-0.001",
              invalid("0.001-0-0.001", "--pattern", "'0.001' s is too short for an inhale: inhale and exhale last 0.5...120 s")),
    // Conflicts.
    UsageLine("--simulate --ahap x.ahap --pattern box", "motorbreath: --ahap plays the file as it is: --pattern does not apply to it"),
    UsageLine("render --ahap x.ahap --cycles 3 --cues", "motorbreath: --ahap plays the file as it is: --cycles or --cues do not apply to it"),
    UsageLine("--simulate --cycles 2 --minutes 1", "motorbreath: use --cycles or --minutes, not both"),
    UsageLine("--simulate --port /dev/null", "motorbreath: use --simulate or --port, not both"),
    UsageLine("--port /dev/null --virtual-time", "motorbreath: --sim-link and --virtual-time work with --simulate only"),
    // Unknown commands and options, missing values.
    UsageLine("nosuchsubcommand",
              "motorbreath: unknown command 'nosuchsubcommand' (commands: play, ports, info, bench, conform, latency, palette, calibrate, selftest, render, fidelity, benchmark, sim-board, serve or doctor; see motorbreath --help)"),
    UsageLine("rendr --pattern box",
              "motorbreath: unknown command 'rendr' (commands: play, ports, info, bench, conform, latency, palette, calibrate, selftest, render, fidelity, benchmark, sim-board, serve or doctor; see motorbreath --help)"),
    UsageLine("--simulate --frobnicate", "motorbreath: Unknown option '--frobnicate'"),
    UsageLine("render extra", "motorbreath: Unexpected argument 'extra'"),
    UsageLine("--simulate --cycles", "motorbreath: Missing value for '--cycles <cycles>'"),
    UsageLine("", "motorbreath: say where the board is: --port /dev/ttyUSB0, or --simulate to run without one"),
    // What the user typed is quoted escaped: an escape sequence never reaches the terminal raw.
    UsageLine("bad\u{1B}[31mcommand",
              "motorbreath: unknown command 'bad\\u{1B}[31mcommand' (commands: play, ports, info, bench, conform, latency, palette, calibrate, selftest, render, fidelity, benchmark, sim-board, serve or doctor; see motorbreath --help)"),
    // Every command that opens a board says where it should be, the same way.
    UsageLine("palette", "motorbreath: say where the board is: --port /dev/ttyUSB0, or --simulate to run without one"),
    UsageLine("conform", "motorbreath: say where the board is: --port /dev/ttyUSB0, or --simulate to run without one"),
    UsageLine("calibrate", "motorbreath: say where the board is: --port /dev/ttyUSB0, or --simulate to run without one"),
    UsageLine("palette --simulate --port /dev/null", "motorbreath: use --simulate or --port, not both"),
    UsageLine("conform --simulate --port /dev/null", "motorbreath: use --simulate or --port, not both"),
    UsageLine("calibrate --simulate --port /dev/null", "motorbreath: use --simulate or --port, not both"),
    // --control-mode without --control-socket, in play and the palette alike.
    UsageLine("--simulate --control-mode 660", "motorbreath: --control-mode sets the permissions of --control-socket; give that too"),
    UsageLine("palette --simulate --control-mode 660", "motorbreath: --control-mode sets the permissions of --control-socket; give that too"),
]

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct UsageLineTests {
    @Test(arguments: usageLines)
    func refusedWhileParsingWithOneLine(_ row: UsageLine) {
        let r = parseLine(row.arguments)
        #expect(r.status == usage, "\(row)")
        #expect(r.line == row.line, "\(row)")
    }
}
