// Files motorbreath reads back from its config directory (profiles, settings.json) as a user may have left
// them: out of range, damaged, too large, unwritable. Each is one line naming the file (and the field),
// and `--profile none` works around a bad profile. Every run has its own XDG_CONFIG_HOME.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc
import TestSupport
import Testing

private struct Config {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("mb-config-\(UUID().uuidString)")
    var env: [String: String] { ["XDG_CONFIG_HOME": url.path] }
    var profiles: URL { url.appendingPathComponent("motorbreath/profiles") }
    var settings: URL { url.appendingPathComponent("motorbreath/settings.json") }

    func write(_ text: String, to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A profile as calibrate writes it, with `changes` applied to its fields.
private func profileText(_ changes: [String: String] = [:]) -> String {
    var fields: [String: String] = [
        "version": "1", "board": "\"5349424f41524400\"", "board_name": "\"sim\"", "spot": "\"wrist\"", "motor": "\"erm\"",
        "start_threshold": "0.15", "stop_threshold": "0.06", "felt_threshold": "0.1", "comfort_max": "0.8",
        "lag_s": "0.08", "lag_source": "\"reference\"", "staircases": "{}", "created": "\"\"",
    ]
    for (k, v) in changes { fields[k] = v }
    return "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct ConfigFileTests {
    /// Each field out of the range calibrate produces: refused with the file and field, before any frame.
    @Test(arguments: [
        (["start_threshold": "5"], "start_threshold 5.0 is outside 0...1 (a fraction of full drive)"),
        (["lag_s": "1e6"], "lag_s 1000000.0 is outside 0.005...1.0 s"),
        (["felt_threshold": "0.9", "comfort_max": "0.5"], "felt_threshold 0.9 is above comfort_max 0.5"),
        (["stop_threshold": "0.3"], "stop_threshold 0.3 is above start_threshold 0.15 (a motor holds down to below where it starts)"),
        (["comfort_max": "-0.2"], "comfort_max -0.2 is outside 0...1 (a fraction of full drive)"),
        (["motor": "\"dc\""], "motor 'dc' is not erm or lra"),
        (["lag_s": "\"fast\""], "lag_s: expected a number or value of Double"),
        (["version": "2"], "version 2 is not 1 (made by a newer motorbreath?)"),
    ])
    func aProfileOutOfRangeIsRefusedNamingTheField(_ changes: [String: String], _ why: String) throws {
        let config = Config()
        defer { config.remove() }
        let file = config.profiles.appendingPathComponent("5349424f41524400-wrist.json")
        try config.write(profileText(changes), to: file)
        let r = try runMotorbreath(["render", "--pattern", "1-0-1", "--profile", "5349424f41524400-wrist"], environment: config.env)
        #expect(r.status == 1)
        #expect(r.stderr == "motorbreath: profile \(file.path): \(why)\n")
        #expect(r.stdout.isEmpty)
        let none = try runMotorbreath(["render", "--pattern", "1-0-1", "--profile", "none"], environment: config.env)
        #expect(none.status == 0 && none.stderr.isEmpty, "--profile none works around it: \(none.stderr)")
    }

    /// The profile calibrate would write is taken: the checks refuse only what is out of range.
    @Test func aProfileInRangeIsUsed() throws {
        let config = Config()
        defer { config.remove() }
        try config.write(profileText(), to: config.profiles.appendingPathComponent("5349424f41524400-wrist.json"))
        let r = try runMotorbreath(["render", "--pattern", "1-0-1", "--profile", "5349424f41524400-wrist"], environment: config.env)
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func aDamagedOrHugeProfileIsOneLine() throws {
        let config = Config()
        defer { config.remove() }
        let file = config.profiles.appendingPathComponent("x-wrist.json")
        try config.write("{\"version\": 1, ", to: file)
        var r = try runMotorbreath(["render", "--pattern", "1-0-1", "--profile", "x-wrist"], environment: config.env)
        #expect(r.stderr == "motorbreath: profile \(file.path): not valid JSON\n")
        try config.write(String(repeating: " ", count: 100_000) + profileText(), to: file)
        r = try runMotorbreath(["render", "--pattern", "1-0-1", "--profile", "x-wrist"], environment: config.env)
        #expect(r.stderr == "motorbreath: \(file.path) is \(100_000 + profileText().utf8.count) bytes, more than the 64 KB such a file may have\n")
    }

    /// A remembered `off` is said on every run it silences, and a damaged settings file is named.
    @Test func aRememberedStrengthOffIsSaidAndDamagedSettingsAreNamed() throws {
        let config = Config()
        defer { config.remove() }
        try config.write("{\"strength\": \"off\"}", to: config.settings)
        let r = try runMotorbreath(["render", "--pattern", "1-0-1", "--frame-rate", "50"], environment: config.env)
        #expect(r.status == 0)
        #expect(r.stderr == "motorbreath: note: strength off (remembered; --strength moderate to change)\n")
        let duties = r.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[2] }
        #expect(duties.allSatisfy { Double($0) == 0 }, "off plays nothing")
        try config.write("{\"strength\": \u{1B}[31m", to: config.settings)
        let damaged = try runMotorbreath(["render", "--pattern", "1-0-1", "--frame-rate", "50"], environment: config.env)
        #expect(damaged.status == 0)
        #expect(damaged.stderr == "motorbreath: note: \(config.settings.path) is not a JSON object; using strong\n")
    }

    /// A config directory that cannot be made: one line with the reason, not a Foundation error dump.
    @Test func anUnwritableConfigDirectoryIsOneLine() throws {
        let config = Config()
        defer { config.remove() }
        try config.write("x", to: config.url.appendingPathComponent("blocker"))
        // XDG_CONFIG_HOME is a regular file: its motorbreath directory can never be made, as root too.
        let env = ["XDG_CONFIG_HOME": config.url.appendingPathComponent("blocker").path]
        let r = try runMotorbreath(["--simulate", "--virtual-time", "--quiet", "--pattern", "0.5-0-0.5", "--strength", "subtle"], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        let dir = config.url.appendingPathComponent("blocker/motorbreath").path
        #expect(r.stderr == "motorbreath: note: could not remember the strength: cannot write \(dir)/settings.json: cannot make its directory \(dir) (Not a directory)\n")
    }
}
