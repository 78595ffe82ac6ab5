// A profile saved and read back (every field), the store's path rules, and what a
// profile does to the shaper's motor and the felt range.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Calibration
import Foundation
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10)))
struct ProfileTests {
    func temporaryStore() -> (ConfigStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mb-config-\(UUID().uuidString)")
        return (ConfigStore(environment: ["XDG_CONFIG_HOME": dir.path, "HOME": "/nonexistent"]), dir)
    }

    @Test func roundTrip() throws {
        let (store, dir) = temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        var rig = SimulatedRig.random(seed: 7)
        let procedure = rig.run()
        let profile = CalibrationProfile(procedure: procedure, board: CalibrationProfile.boardID(0x5349_4D42_4F41_5244),
                                         boardName: "motorbreath-sim-erm", spot: "wrist", lra: false,
                                         lagSeconds: rig.motor.riseTau, lagSource: "model", created: "2026-11-25T08:00:00Z")
        let url = try store.save(profile)
        #expect(url.path == dir.path + "/motorbreath/profiles/53494d424f415244-wrist.json")
        #expect(profile.name == "53494d424f415244-wrist")  // "SIMBOARD"
        let back = try store.load(profile.name)
        #expect(back == profile)
        #expect(back?.staircases.count == 5)
        #expect(back?.lagSource == "spin-up task")
        #expect(store.profileNames() == [profile.name])
        #expect(try store.load("nobody-wrist") == nil)
        #expect(throws: ConfigError.self) { try store.load("../etc/passwd") }
    }

    @Test func fallsBackToHomeConfig() {
        let store = ConfigStore(environment: ["HOME": "/home/someone"])
        #expect(store.directory.path == "/home/someone/.config/motorbreath")
        let relative = ConfigStore(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "relative/path"])
        #expect(relative.directory.path == "/h/.config/motorbreath")  // XDG says: relative paths are ignored
    }

    @Test func profileSetsTheShapersMotorAndTheFeltRange() {
        let p = CalibrationProfile(board: "0000000000000001", boardName: "b", spot: "palm", motor: "erm",
                                   startThreshold: 0.18, stopThreshold: 0.06, feltThreshold: 0.09, comfortMax: 0.7,
                                   lagSeconds: 0.1, lagSource: "model")
        #expect(p.motorProfile == .erm(ERMModel(riseTau: 0.1, fallTau: 0.1, startThreshold: 0.18, stopThreshold: 0.06)))
        var measured = p
        measured.lagSource = "spin-up task"  // a measured lag is taken 10 % longer (CalibrationProfile.lagSafety)
        #expect(measured.motorProfile == .erm(ERMModel(riseTau: 0.1 * 1.1, fallTau: 0.1 * 1.1, startThreshold: 0.18, stopThreshold: 0.06)))
        #expect(p.feltRange.map(0) == 0)
        #expect(abs(p.feltRange.map(1) - 0.7) < 1e-12)
        #expect(abs(p.feltRange.map(0.5) - (0.09 + 0.5 * 0.61)) < 1e-12)
        #expect(abs(p.feltRange.map(0.001) - (0.09 + 0.001 * 0.61)) < 1e-12)  // the faintest is still felt
    }

    /// Rendered with a profile, the quietest part of a subtle breath is at least the felt threshold and
    /// its peak at most the comfortable maximum; without one, a subtle breath spends time below it. The
    /// taps (counted cues, hold ticks, the end) are scaled the same way.
    @Test(arguments: [false, true])
    func subtleIsFeltAndStrongIsNotTooStrong(vocabulary: Bool) {
        let range = FeltRange(floor: 0.12, ceiling: 0.55)
        for (strength, check) in [(0.3, "subtle"), (1.0, "strong")] {
            var o = BreathOptions()
            o.strength = strength
            if vocabulary {
                o.cues = true
                o.countedTaps = true
                o.holdSignal = .ticks
            }
            let plan = BreathPlan(pattern: BreathPattern.presets[0], options: o)
            var r = FrameRenderer(plan: plan, frameRate: 250, resolution: .i16, feltRange: range)
            let frames = r.renderDetailed(count: r.frameCount)
            let swelling = frames.filter { $0.intensity > 0 }
            #expect(swelling.allSatisfy { $0.intensity >= 0.12 - 1e-9 && $0.intensity <= 0.55 + 1e-9 }, "\(check)")
            var plain = FrameRenderer(plan: plan, frameRate: 250, resolution: .i16)
            let before = plain.renderDetailed(count: plain.frameCount).filter { $0.intensity > 0 }
            if strength < 1 { #expect(before.contains { $0.intensity < 0.12 }) } else { #expect(before.contains { $0.intensity > 0.55 }) }
        }
    }
}
