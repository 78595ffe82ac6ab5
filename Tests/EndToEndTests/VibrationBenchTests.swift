// `bench --vibration` as a maker runs it: a sim-board process driving a motor file's physical motor with
// an accelerometer on it, over a real pty; the motor's figures and the fitted shaping model judged against
// the motor file's own physics (the oracle: its equations, not the analysis under test).
// SPDX-License-Identifier: Apache-2.0

import Foundation
@testable import MotorPhysics
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct VibrationBenchTests {
    /// The slow coin ERM (40 % slower than the renderer's default): identified within 10 % of its mechanical
    /// time constant and start threshold, its 4-7-8 felt closer to the pattern when shaped for the fit and
    /// within 3 % RMS (measured through the accelerometer), every frame played, the plot written, the fit saved in the board's
    /// wrist profile and used by the next play.
    @Test func theSlowCoinERMIsMeasuredAndIdentifiedOverAPty() throws {
        let path = repository.appendingPathComponent("hardware/motors/erm-slow-coin.json").path
        let physics = try #require(try MotorFile.load(path: path).erm)
        let board = try SimBoardProcess(arguments: ["--motor-file", path])
        defer { board.kill() }
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("vibration-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: svg) }
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("vibration-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        let env = ["XDG_CONFIG_HOME": config.path]
        let r = try runMotorbreath(["bench", "--vibration", "--json", "--port", board.ptyPath, "--svg", svg, "--save-profile", "wrist"],
                                   timeout: 240, environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        let report = try jsonObject(r.stdout)
        #expect((report["frames_played"] as? Int).map { $0 > 14_000 && $0 == report["frames_total"] as? Int } == true)
        let m = try #require(report["identified"] as? [String: Any], "\(r.stdout.prefix(400))")
        let rise = try #require(m["riseTau"] as? Double), start = try #require(m["startThreshold"] as? Double)
        print(String(format: "bench --vibration, erm-slow-coin over a pty: rise tau %.1f ms (the motor's %.1f ms), start %.3f (its %.3f)",
                     rise * 1000, physics.mechanicalTau * 1000, start, physics.startDrive))
        #expect(abs(rise / physics.mechanicalTau - 1) <= 0.10)
        #expect(abs(start / physics.startDrive - 1) <= 0.10)
        // The 4-7-8 through the accelerometer: shaped for the reference model, then for the fitted one.
        let before = try #require((report["felt_reference"] as? [String: Any])?["rmsPercent"] as? Double)
        let after = try #require((report["felt_identified"] as? [String: Any])?["rmsPercent"] as? Double)
        print(String(format: "felt error of the 4-7-8 through the accelerometer: %.2f %% shaped for the reference model, %.2f %% for the fitted one", before, after))
        #expect(after < before)
        #expect(after <= 3, "issue 41's figure, over the wire")
        let vibration = try #require(report["vibration"] as? [String: Any])
        // The board drops a batch it has no room for and says so (SAMPLES `lost`): allowed, within 1 %, for a
        // sim-board process that waits for a core on a loaded machine (54 of 104 000 with both cores busy).
        let samples = vibration["samples"] as? Int ?? 0, lost = vibration["lostSamples"] as? Int ?? -1
        #expect(samples > 40_000, "a sample a millisecond for the stimulus's 52 s")
        #expect(lost >= 0 && lost * 100 <= samples, "\(lost) of \(samples) samples lost")
        let plot = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(plot.hasPrefix("<svg") || plot.hasPrefix("<?xml"))

        // The fit went into the board's profile for the wrist, and the next play on that board uses it.
        let saved = config.appendingPathComponent("motorbreath/profiles/53494d424f415244-wrist.json")
        let profile = try jsonObject(String(contentsOf: saved, encoding: .utf8))
        #expect(profile["lag_source"] as? String == "accelerometer")
        #expect((profile["lag_s"] as? Double).map { abs($0 - rise) < 1e-9 } == true, "\(profile)")
        let play = try runMotorbreath(["--port", board.ptyPath, "--pattern", "2-1-2", "--cycles", "1"], timeout: 60, environment: env)
        #expect(play.status == 0 && play.stderr.contains("profile: 53494d424f415244-wrist"), "\(play.stderr)")
    }

    /// A board without a sensor is refused in one line, the motor never started.
    @Test func aBoardWithoutASensorIsRefusedInOneLine() throws {
        let board = try SimBoardProcess()
        defer { board.kill() }
        let r = try runMotorbreath(["bench", "--vibration", "--port", board.ptyPath], timeout: 60)
        #expect(r.status == 1)
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("motorbreath:") }  // beside the progress line
        #expect(errors.count == 1 && errors[0].contains("no vibration sensor"), "\(r.stderr)")
    }
}

/// The repository's root (motor files, the firmware, the docs).
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
