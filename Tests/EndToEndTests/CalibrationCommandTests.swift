// `motorbreath calibrate --simulate` end to end (the simulated board in virtual time, a seeded simulated
// person answering), the saved profile used by render and play, and the remembered strength. Every run
// has its own XDG_CONFIG_HOME.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc
import TestSupport
import Testing

@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct CalibrationCommandTests {
    final class ConfigDir {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mb-xdg-\(UUID().uuidString)")
        var env: [String: String] { ["XDG_CONFIG_HOME": url.path] }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static let simProfile = "53494d424f415244-wrist"  // the simulated board's unique id ("SIMBOARD"), spot wrist

    func calibrate(_ config: ConfigDir, seed: Int = 3, extra: [String] = []) throws -> [String: Any] {
        let r = try runMotorbreath(["calibrate", "--simulate", "--person-seed", "\(seed)", "--json"] + extra,
                                   timeout: 300, environment: config.env)
        #expect(r.status == 0, "\(r.stderr)")
        return try jsonObject(r.stdout)
    }

    @Test func simulatedCalibrationFindsThePersonAndSavesAProfile() throws {
        let config = ConfigDir()
        for seed in [3, 11] {
            let json = try calibrate(config, seed: seed)
            let profile = json["profile"] as! [String: Any]
            let truth = json["simulated_truth"] as! [String: Double]
            let pairs = [("motor_start", "start_threshold"), ("motor_stop", "stop_threshold"),
                         ("felt_threshold", "felt_threshold"), ("comfort_max", "comfort_max"), ("motor_lag", "lag_s")]
            for (task, field) in pairs {
                let got = profile[field] as! Double, want = truth[task]!
                // The comfortable maximum is the noisiest judgment and cannot be probed above full drive (AccuracyTests
                // bounds its p50 and p95 over 100 seeds; one person may sit in the tail).
                #expect(abs(got - want) <= (task == "comfort_max" ? 0.15 : task == "motor_lag" ? 0.01 : 0.03),
                        "seed \(seed) \(task): \(got) vs hidden \(want)")
            }
            #expect(profile["lag_source"] as? String == "spin-up task")
            let lag = profile["lag_s"] as! Double
            #expect(abs(lag - truth["motor_lag"]!) <= 0.01, "seed \(seed): lag \(lag) vs hidden \(truth["motor_lag"]!)")
            #expect(json["motor_off_at_exit"] as? Bool == true)
            let trials = json["trials"] as! Int
            #expect((30...120).contains(trials), "seed \(seed): \(trials) trials")
            let path = json["path"] as! String
            #expect(path == config.url.path + "/motorbreath/profiles/\(CalibrationCommandTests.simProfile).json")
            let saved = try jsonObject(String(contentsOfFile: path, encoding: .utf8))
            #expect(saved["felt_threshold"] as? Double == profile["felt_threshold"] as? Double)
        }
    }

    func render(_ config: ConfigDir, _ extra: [String]) throws -> String {
        let r = try runMotorbreath(["render", "--pattern", "2-1-2", "--frame-rate", "100"] + extra, environment: config.env)
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    /// The intensity column of a CSV render.
    func intensities(_ csv: String) -> [Double] {
        csv.split(separator: "\n").dropFirst().map { Double($0.split(separator: ",")[1])! }
    }

    @Test func renderUsesTheProfileByNameAndNotWithNone() throws {
        let config = ConfigDir()
        let profile = try calibrate(config)["profile"] as! [String: Any]
        let felt = profile["felt_threshold"] as! Double, comfort = profile["comfort_max"] as! Double
        let plain = try render(config, ["--strength", "subtle"])
        let none = try render(config, ["--strength", "subtle", "--profile", "none"])
        let with = try render(config, ["--strength", "subtle", "--profile", CalibrationCommandTests.simProfile])
        #expect(plain == none)
        #expect(with != plain)
        // Subtle is felt: every sounding frame is at least the felt threshold, and none above the comfort.
        let sounding = intensities(with).filter { $0 > 0 }
        #expect(!sounding.isEmpty && sounding.allSatisfy { $0 >= felt - 1e-6 && $0 <= comfort + 1e-6 },
                "felt \(felt), comfort \(comfort), range \(sounding.min()!)...\(sounding.max()!)")
        #expect(intensities(plain).contains { $0 > 0 && $0 < felt })
        let missing = try runMotorbreath(["render", "--pattern", "2-1-2", "--profile", "nobody-wrist"], environment: config.env)
        #expect(missing.status != 0)
        #expect(missing.stderr.split(separator: "\n").count == 1 && missing.stderr.contains("no profile 'nobody-wrist'"), "\(missing.stderr)")
    }

    @Test func playPicksTheBoardsProfileUnlessToldNone() throws {
        let config = ConfigDir()
        _ = try calibrate(config)
        let base = ["--simulate", "--virtual-time", "--pattern", "2-1-2", "--json"]
        let with = try runMotorbreath(base, timeout: 120, environment: config.env)
        #expect(with.status == 0, "\(with.stderr)")
        #expect(with.stderr.contains("profile: \(CalibrationCommandTests.simProfile)"), "\(with.stderr)")
        #expect(try jsonObject(with.stdout)["wrong_duties"] as? Int == 0)
        #expect(try jsonObject(with.stdout)["profile"] as? String == CalibrationCommandTests.simProfile)  // scripts see it too
        let none = try runMotorbreath(base + ["--profile", "none"], timeout: 120, environment: config.env)
        #expect(none.status == 0, "\(none.stderr)")
        #expect(!none.stderr.contains("profile:"))
        #expect(try jsonObject(none.stdout)["profile"] == nil)
        let otherSpot = try runMotorbreath(base + ["--spot", "palm"], timeout: 120, environment: config.env)
        #expect(!otherSpot.stderr.contains("profile:"))
        // A damaged profile does not stop a breath: it plays without, and says so.
        let file = config.url.appendingPathComponent("motorbreath/profiles/\(CalibrationCommandTests.simProfile).json")
        try Data("{ not json".utf8).write(to: file)
        let damaged = try runMotorbreath(base, timeout: 120, environment: config.env)
        #expect(damaged.status == 0, "\(damaged.stderr)")
        #expect(damaged.stderr.contains("playing without a profile") && !damaged.stderr.contains("profile: 5349"), "\(damaged.stderr)")
    }

    @Test func theLastStrengthIsRememberedAndAFlagWins() throws {
        let config = ConfigDir()
        let strong = try render(config, [])
        let subtle = try render(config, ["--strength", "subtle"])
        #expect(strong != subtle)
        let play = try runMotorbreath(["--simulate", "--virtual-time", "--pattern", "2-1-2", "--quiet", "--strength", "subtle"],
                                      timeout: 120, environment: config.env)
        #expect(play.status == 0, "\(play.stderr)")
        let settings = try jsonObject(String(contentsOf: config.url.appendingPathComponent("motorbreath/settings.json"), encoding: .utf8))
        #expect(settings["strength"] as? String == "subtle")
        #expect(try render(config, []) == subtle)                          // remembered
        #expect(try render(config, ["--strength", "strong"]) == strong)   // an explicit flag wins
        // render never changes what is remembered
        #expect(try render(config, []) == subtle)
    }
}

/// `calibrate --port` on the simulated board in its own process, answered through standard input as a
/// person would press keys: the trials reach the board's pin at the staircase's levels, q stops with
/// nothing saved, Ctrl-C stops with the motor off.
@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct CalibrationPortTests {
    @Test func answersMoveTheLevelOnTheBoardAndQStopsWithNothingSaved() throws {
        let board = try SimBoardProcess()
        defer { board.stop() }
        let config = CalibrationCommandTests.ConfigDir()
        // space: ready; n: not turning at 35 % (up one step of 8 %); y: turning at 43 % (down); q: stop.
        let r = try runMotorbreath(["calibrate", "--port", board.ptyPath], timeout: 60, environment: config.env,
                                   input: " nyq")
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("calibration stopped (q); nothing saved; motor off"), "\(r.stderr)")
        #expect(r.stderr.contains("1/5  motor start: Hold the motor lightly between finger and thumb"))
        #expect(!FileManager.default.fileExists(atPath: config.url.appendingPathComponent("motorbreath/profiles").path))
        let record = board.stop()
        // The pin held 35 %, then 43 %, then 39 % (a reversal halves the step; the third trial is unanswered),
        // each for a second, then 0 (within the 8-bit duty's step).
        var held: [Double] = []
        for (a, b) in zip(record.changes, record.changes.dropFirst()) where a.level != 0 {
            let seconds = Double(b.tick - a.tick) / Double(record.clockHz)
            if seconds > 0.5 { held.append(Double(a.level) / 32767) }
        }
        #expect(held.count == 3 && zip(held, [0.35, 0.43, 0.39]).allSatisfy { abs($0 - $1) <= 0.5 / 255 + 1e-4 }, "\(held)")
        #expect(record.changes.last?.level == 0)
    }

    @Test func ctrlCStopsWithTheMotorOff() throws {
        let board = try SimBoardProcess()
        defer { board.stop() }
        let config = CalibrationCommandTests.ConfigDir()
        let host = try RunningMotorbreath(["calibrate", "--port", board.ptyPath], environment: config.env, input: " ")
        // Wait until the first trial is on the pin, then Ctrl-C while it plays.
        let deadline = Date().addingTimeInterval(20)
        while board.record.changes.last.map({ $0.level == 0 }) ?? true, Date() < deadline { usleep(20_000) }
        kill(host.process.processIdentifier, SIGINT)
        let r = host.finish(timeout: 20)
        #expect(r.status == 130, "\(r.stderr)")
        #expect(r.stderr.contains("stopped, nothing saved; motor off"), "\(r.stderr)")
        let record = board.stop()
        #expect(record.changes.last?.level == 0, "the pin is left at \(record.changes.last.map { "\($0.level)" } ?? "?")")
    }
}

extension CalibrationCommandTests {
    /// palette finds the board's profile too (and Ctrl-C still ends it with the motor off).
    @Test func paletteUsesTheBoardsProfile() throws {
        let config = ConfigDir()
        _ = try calibrate(config)
        let palette = try RunningMotorbreath(["palette", "--simulate"], environment: config.env, input: "")
        // Prepared and playing once the profile line is out; then Ctrl-C.
        let deadline = Date().addingTimeInterval(20)
        while !palette.stderrSoFar.contains("profile:"), Date() < deadline { usleep(20_000) }
        kill(palette.process.processIdentifier, SIGINT)
        let r = palette.finish(timeout: 20)
        #expect(r.status == 130, "\(r.stderr)")
        #expect(r.stderr.contains("profile: \(CalibrationCommandTests.simProfile)"), "\(r.stderr)")
        #expect(r.stderr.contains("motor off"), "\(r.stderr)")
    }

    /// A profiles folder that cannot be made (XDG_CONFIG_HOME under a regular file: unwritable even for root)
    /// is refused in one line before the board is touched; --no-save measures anyway.
    @Test func anUnwritableProfilesFolderIsRefusedBeforeTheFirstTrial() throws {
        let config = ConfigDir()
        try FileManager.default.createDirectory(at: config.url, withIntermediateDirectories: true)
        let file = config.url.appendingPathComponent("a-file").path
        try "x\n".write(toFile: file, atomically: false, encoding: .utf8)
        let env = ["XDG_CONFIG_HOME": file]
        let r = try runMotorbreath(["calibrate", "--simulate"], timeout: 60, environment: env)
        #expect(r.status == 1)
        #expect(r.stderr == "motorbreath: cannot write in \(file)/motorbreath/profiles: cannot make it (Not a directory); calibration not started (--no-save measures without saving)\n")
        let measured = try runMotorbreath(["calibrate", "--simulate", "--no-save", "--json"], timeout: 300, environment: env)
        #expect(measured.status == 0, "\(measured.stderr)")
        #expect(try jsonObject(measured.stdout)["path"] == nil)
    }

    /// The folder is writable but the profile still cannot be saved at the end (its name is taken by a
    /// directory): the measured profile is printed on standard output and the error line says so.
    @Test func aProfileThatCannotBeSavedAtTheEndIsPrinted() throws {
        let config = ConfigDir()
        let taken = config.url.appendingPathComponent("motorbreath/profiles/\(CalibrationCommandTests.simProfile).json")
        try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: true)
        let r = try runMotorbreath(["calibrate", "--simulate", "--person-seed", "3"], timeout: 300, environment: config.env)
        #expect(r.status == 1)
        let profile = try jsonObject(r.stdout)
        #expect(profile["felt_threshold"] is Double, "\(r.stdout)")
        let last = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("motorbreath: cannot write \(taken.path)"), "\(r.stderr)")
        #expect(last.hasSuffix("; the measured profile is on standard output: save it as \(CalibrationCommandTests.simProfile).json in the profiles folder"), "\(last)")
        #expect(r.stderr.contains("\nNOT SAVED\n"))
    }
}
