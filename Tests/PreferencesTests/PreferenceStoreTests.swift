// The remembered strength: saved and read back, in settings.json of the config directory, in the format
// earlier versions wrote (a settings file saved before still loads, and its other keys are kept).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Preferences
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10)))
struct PreferenceStoreTests {
    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("mb-prefs-\(UUID().uuidString)")
    }

    /// Moved from CalibrationTests' ProfileTests (the strength was the calibration module's ConfigStore's).
    @Test func lastStrengthIsRemembered() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = PreferenceStore(environment: ["XDG_CONFIG_HOME": dir.path, "HOME": "/nonexistent"])
        #expect(try store.lastStrength() == nil)
        try store.saveStrength("subtle")
        #expect(try store.lastStrength() == "subtle")
        try store.saveStrength("0.45")
        #expect(try PreferenceStore(environment: ["XDG_CONFIG_HOME": dir.path]).lastStrength() == "0.45")
        #expect(store.settingsURL.path == dir.path + "/motorbreath/settings.json")
    }

    /// A settings.json as an earlier version wrote it (pretty, sorted keys) loads; a save keeps other keys.
    @Test func aSettingsFileFromBeforeLoadsAndKeepsItsOtherKeys() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("motorbreath")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let before = "{\n  \"future\" : 7,\n  \"strength\" : \"moderate\"\n}"
        try before.write(to: folder.appendingPathComponent("settings.json"), atomically: true, encoding: .utf8)
        let store = PreferenceStore(environment: ["XDG_CONFIG_HOME": dir.path])
        #expect(try store.lastStrength() == "moderate")
        try store.saveStrength("subtle")
        let after = try String(contentsOf: store.settingsURL, encoding: .utf8)
        #expect(after == "{\n  \"future\" : 7,\n  \"strength\" : \"subtle\"\n}")
    }

    @Test func aSettingsFileThatIsNotAnObjectIsAnErrorNamingIt() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = PreferenceStore(directory: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "[1]".write(to: store.settingsURL, atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { try store.lastStrength() }
        do { _ = try store.lastStrength() } catch { #expect(error.description == "\(store.settingsURL.path) is not a JSON object") }
    }
}
