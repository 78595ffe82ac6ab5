// Every input issue 11 found, as a table: the command line (or AHAP file), the exit status, and the one
// error line motorbreath must print. Rows refused while parsing are checked in process (OptionTests'
// UsageLineTests); a few of them stay here, run as processes, with every row refused at run time. Categories: negative numbers, ranges, not-a-number, degenerate
// patterns, conflicting options, unknown commands and options, AHAP files at any size, output targets.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc
import TestSupport
import Testing

struct BadInput: CustomStringConvertible, Sendable {
    var arguments: [String]
    var status: Int32
    var line: String
    var description: String { arguments.joined(separator: " ") }
    init(_ arguments: String, _ status: Int32, _ line: String) {
        self.arguments = arguments.split(separator: " ").map(String.init)
        self.status = status
        self.line = line
    }
}

/// "The value 'V' is invalid for '--o <o>': why" (ArgumentParser's wording for a value an option refuses).
func invalid(_ value: String, _ option: String, _ why: String) -> String {
    "motorbreath: The value '\(value)' is invalid for '\(option) <\(option.dropFirst(2))>': \(why)"
}

let usage: Int32 = 64, failure: Int32 = 1

let badCommandLines: [BadInput] = [
    // Refused while parsing: a few rows, run as processes (main prints the line OptionTests checks in process
    // for every such row: UsageLineTests).
    // Negative numbers are read as values, then accepted or refused by their range.
    BadInput("--simulate --cycles -1", usage, invalid("-1", "--cycles", "expected a whole number 1...100000")),
    // Ranges, not-a-number, infinity.
    BadInput("--simulate --strength loud", usage, invalid("loud", "--strength", "strength is off, subtle, moderate, strong or a number 0...1")),
    BadInput("--simulate --sim-link corrupt=2", usage, invalid("corrupt=2", "--sim-link", "'2': corrupt is a probability per byte, 0...0.5")),
    // Conflicts, sessions over 24 hours.
    BadInput("--simulate --port /dev/null", usage, "motorbreath: use --simulate or --port, not both"),
    BadInput("--simulate --cycles 100000", failure, "motorbreath: --cycles 100000 of 4-7-8 last 527.8 hours; the longest session is 24 hours"),
    BadInput("render --pattern box --cycles 5500", failure, "motorbreath: --cycles 5500 of box last 24.4 hours; the longest session is 24 hours"),
    // Unknown commands and options, missing values.
    BadInput("nosuchsubcommand", usage,
             "motorbreath: unknown command 'nosuchsubcommand' (commands: play, ports, info, bench, conform, latency, palette, calibrate, selftest, render, fidelity, benchmark, sim-board, serve or doctor; see motorbreath --help)"),
    BadInput("--simulate --frobnicate", usage, "motorbreath: Unknown option '--frobnicate'"),
    BadInput("--simulate --cycles", usage, "motorbreath: Missing value for '--cycles <cycles>'"),
    BadInput("", usage, "motorbreath: say where the board is: --port /dev/ttyUSB0, or --simulate to run without one"),
    // Files that cannot be used.
    BadInput("sim-board --drive-log /nonexistent/x", failure, "motorbreath: cannot write the drive log /nonexistent/x: No such file or directory"),
    BadInput("render -o /nonexistent/x.csv", failure, "motorbreath: cannot write /nonexistent/x.csv: No such file or directory"),
    BadInput("render -o /tmp", failure, "motorbreath: cannot write /tmp: it is a directory"),
    BadInput("render -o /dev/full", failure, "motorbreath: cannot write /dev/full: No space left on device"),
    BadInput("benchmark -o /nonexistent/b.md", failure, "motorbreath: cannot write /nonexistent/b.md: No such file or directory"),
    BadInput("render --ahap /nonexistent.ahap", failure, "motorbreath: bad AHAP file: /nonexistent.ahap: cannot read the file: No such file or directory"),
    BadInput("render --ahap /tmp", failure, "motorbreath: bad AHAP file: /tmp: it is a directory, not a file"),
    // Terminal devices that are never a board's port: said so, not "open in another program" or "disconnected".
    BadInput("--port /dev/ptmx --pattern 1-0-1 --quiet", failure,
             "motorbreath: cannot open /dev/ptmx: it is the pseudo-terminal multiplexer, not a port: give the /dev/pts/N path a board prints (motorbreath sim-board) or a USB port such as /dev/ttyUSB0"),
    BadInput("--port /dev/tty --pattern 1-0-1 --quiet", failure,
             "motorbreath: cannot open /dev/tty: it is this program's own terminal, not a board's port: give the board's port, e.g. /dev/ttyUSB0 (motorbreath ports lists them)"),
    // /proc takes no new files, and a file is replaced whole through one (as a user: it is read-only).
    BadInput("render --pattern box -o /proc/version", failure, getuid() == 0
             ? "motorbreath: cannot write /proc/version: no new file can be made in /proc/ (No such file or directory), and the file is replaced whole through one; choose another directory"
             : "motorbreath: cannot write /proc/version: the file is read-only (chmod u+w /proc/version to allow it, or choose another name)"),
    // What the user typed is quoted escaped: an escape sequence never reaches the terminal raw.
    BadInput("bad\u{1B}[31mcommand", usage,
             "motorbreath: unknown command 'bad\\u{1B}[31mcommand' (commands: play, ports, info, bench, conform, latency, palette, calibrate, selftest, render, fidelity, benchmark, sim-board, serve or doctor; see motorbreath --help)"),
]

/// AHAP files people write: each refused with one line naming where, by `render` and by `play`.
let badAHAPFiles: [(String, String)] = [
    (#"{"Pattern": [{"Event": {"Time": 1e308, "EventType": "HapticTransient"}}]}"#,
     "Pattern[0].Event.Time: 1e+308 s is past the longest pattern, 86400 s (24 h)"),
    (#"{"Pattern": [{"Event": {"Time": 1e9, "EventType": "HapticContinuous", "EventDuration": 1}}]}"#,
     "Pattern[0].Event.Time: 1000000000.0 s is past the longest pattern, 86400 s (24 h)"),
    (#"{"Pattern": [{"Event": {"Time": 100000, "EventType": "HapticTransient"}}]}"#,
     "Pattern[0].Event.Time: 100000.0 s is past the longest pattern, 86400 s (24 h)"),
    (#"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 1e308}}]}"#,
     "Pattern[0].Event.EventDuration: 1e+308 s is past the longest pattern, 86400 s (24 h)"),
    (#"{"Pattern": [{"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 1e308, "ParameterValue": 1}}]}"#,
     "Pattern[0].Parameter.Time: 1e+308 s is past the longest pattern, 86400 s (24 h)"),
    (#"{"Pattern": [{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 1e308, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 1}]}}]}"#,
     "Pattern[0].ParameterCurve.Time: 1e+308 s is past the longest pattern, 86400 s (24 h)"),
    (#"{"Pattern": [{"Event": {"Time": 1e400, "EventType": "HapticTransient"}}]}"#, "line 1, column 33: not valid JSON: number too large"),
    (#"{"Pattern": [{"Event": {"Time": 0, "Type": 7}}]}"#, "Pattern[0].Event.Type: missing or not a string"),
    (String(repeating: "[", count: 10_000), "line 1, column 129: not valid JSON: nested more than 128 levels deep"),
    (#"{"Pattern": {}}"#, "Pattern: expected an array of events and parameters, found an object"),
    (#"{"Pattern": 3, "Pattern": []}"#, "top level: \"Pattern\" appears twice"),
    (#"{"Version": 1}"#, "top level: no \"Pattern\" array"),
    (#"["Pattern"]"#, "top level: expected a JSON object with a \"Pattern\" array, found an array"),
    // NUL, escape and newline bytes are named, never echoed raw.
    (String(repeating: "\u{0}", count: 64), "line 1, column 1: not valid JSON: unexpected byte 0x00"),
    ("{\"Pattern\": [\n\u{1B}[31m]}", "line 2, column 1: not valid JSON: unexpected byte 0x1B"),
    (#"{"Pattern": [{"Event": {"Time": 0, "EventType": "Haptic\nX"}}]}"#, "Pattern[0].Event.EventType: unknown event type 'Haptic\\nX'"),
]

/// motorbreath run to completion off the test pool (the cases run side by side and each waits for a process).
func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
    try await offPool {
        let r = try runMotorbreath(arguments, timeout: 30)
        return (r.status, r.stdout, r.stderr)
    }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct InputTableTests {
    @Test(arguments: badCommandLines)
    func badCommandLineIsOneLineAndTheRightStatus(_ input: BadInput) async throws {
        let r = try await run(input.arguments)
        #expect(r.status == input.status, "\(input): exit \(r.status), stderr \(r.stderr)")
        #expect(r.stderr == input.line + "\n", "\(input)")
        #expect(r.stdout.isEmpty, "\(input): \(r.stdout)")
    }

    @Test(arguments: badAHAPFiles.indices)
    func badAHAPFileIsOneLineNamingWhere(_ k: Int) async throws {
        let (text, location) = badAHAPFiles[k]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).ahap").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for command in [["render", "--ahap", path], ["--simulate", "--virtual-time", "--quiet", "--ahap", path]] {
            let r = try await run(command)
            #expect(r.status == failure, "\(command): \(r.stderr)")
            #expect(r.stderr == "motorbreath: bad AHAP file: \(location)\n", "\(command)")
        }
    }

    /// A negative drift is a value sim-board takes, and a session plays on that board.
    @Test func simBoardTakesANegativeDrift() throws {
        let board = try SimBoardProcess(arguments: ["--drift-ppm", "-500"])
        defer { _ = board.stop() }
        #expect(board.ptyPath.hasPrefix("/dev/pts/"))
        let r = try runMotorbreath(["--port", board.ptyPath, "--pattern", "0.5-0-0.5", "--quiet", "--json", "--no-warmup"], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try jsonObject(r.stdout)["frames_played"] as? Int == 250)
    }

    /// Standard output that cannot be written: one line and a failure, not exit 0.
    @Test func writeErrorsOnStandardOutputFail() throws {
        let p = Process()
        p.executableURL = motorbreathBinary
        p.environment = testEnvironment()
        p.arguments = ["render", "--pattern", "box"]
        p.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let err = Pipe()
        p.standardError = err
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == failure)
        #expect(text == "motorbreath: cannot write standard output: No space left on device\n")
    }
}

/// The encodings JSONSerialization reads are read too; what is refused says why, naming the file.
@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct AHAPEncodingTests {
    static let text = #"{"Pattern": [{"Event": {"Time": 0.5, "EventType": "HapticContinuous", "EventDuration": 1}}]}"#

    func render(_ bytes: [UInt8]) throws -> (RunResult, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("enc-\(UUID().uuidString).ahap").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return (try runMotorbreath(["render", "--ahap", path, "--frame-rate", "50"]), path)
    }

    @Test func utf8WithABomAndUTF16EitherWayRoundRenderAsUTF8Does() throws {
        let plain = try render(Array(Self.text.utf8)).0
        #expect(plain.status == 0, "\(plain.stderr)")
        let utf16 = Array(Self.text.utf16)
        let encodings: [(String, [UInt8])] = [
            ("UTF-8 with a BOM", [0xEF, 0xBB, 0xBF] + Array(Self.text.utf8)),
            ("UTF-16LE with a BOM", [0xFF, 0xFE] + utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            ("UTF-16BE with a BOM", [0xFE, 0xFF] + utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
            ("UTF-16LE", utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            ("UTF-16BE", utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
        ]
        for (name, bytes) in encodings {
            let r = try render(bytes).0
            #expect(r.status == 0 && r.stderr.isEmpty, "\(name): \(r.stderr)")
            #expect(r.stdout == plain.stdout, "\(name): not the same frames as UTF-8")
        }
    }

    @Test func utf32IsNamedAndATrailingCommaIsReadWithANote() throws {
        let utf32 = Array(Self.text.unicodeScalars).flatMap { s -> [UInt8] in [0, 0, 0, UInt8(s.value)] }
        let (r, path) = try render(utf32)
        #expect(r.status == failure)
        #expect(r.stderr == "motorbreath: bad AHAP file: \(path): the file is UTF-32; save it as UTF-8\n")
        let comma = try render(Array(#"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient"}},]}"#.utf8)).0
        #expect(comma.status == 0)
        #expect(comma.stderr == "motorbreath: note: line 1, column 69: a trailing comma (read, but Core Haptics refuses the file)\n")
    }

    /// A file over the limit is refused from its size, before it is read (a sparse 1.5 GB file here: reading
    /// it would take seconds and gigabytes).
    @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).ahap").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(truncate(path, 1500 << 20) == 0)
        let r = try runMotorbreath(["render", "--ahap", path], timeout: 20)
        #expect(r.status == failure)
        #expect(r.stderr == "motorbreath: bad AHAP file: \(path): the file is larger than the 64 MB an AHAP file may have (1500 MB)\n")
    }

    @Test func versionIsTheSimulatedBoardsFirmwareVersion() throws {
        let r = try runMotorbreath(["--version"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let board = try SimBoardProcess()
        defer { board.stop() }
        let info = try runMotorbreath(["info", "--port", board.ptyPath, "--json"], timeout: 30)
        #expect(info.status == 0, "\(info.stderr)")
        let firmware = try #require(try jsonObject(info.stdout)["firmware"] as? String)
        #expect(r.stdout == firmware + "\n", "the simulated board's INFO says \(firmware)")
    }
}
