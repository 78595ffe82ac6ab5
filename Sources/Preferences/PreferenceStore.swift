// What a person set once outside calibration (today: the last strength given to play), kept in
// settings.json in the config directory: the file and its format are those of earlier versions.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// What a person set once and motorbreath remembers, outside calibration: the last strength given to
/// `play`. Kept in `settings.json` in the ``ConfigDirectory`` (a JSON object; other keys are kept), the file
/// and the format earlier versions wrote, so settings saved before still load.
///
///     let preferences = PreferenceStore()
///     try preferences.saveStrength("moderate")
///     let last = try preferences.lastStrength()  // "moderate"; nil when none was saved
public struct PreferenceStore: Sendable {
    /// The config directory holding settings.json.
    public let directory: URL

    /// The store in `directory`, or the XDG one from `environment`.
    public init(directory: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.directory = ConfigDirectory(directory: directory, environment: environment).url
    }

    /// The largest settings file read (one is a few lines).
    public static let maxSettingsBytes = 64 << 10

    /// The settings file.
    public var settingsURL: URL { directory.appendingPathComponent("settings.json") }

    /// The strength last given with --strength (its text: off, subtle, moderate, strong or a number), nil
    /// when none was saved; a settings file that cannot be read is an error naming it.
    public func lastStrength() throws(ConfigError) -> String? {
        guard FileManager.default.fileExists(atPath: settingsURL.path) else { return nil }
        let data = try ConfigDirectory.read(settingsURL, limit: PreferenceStore.maxSettingsBytes)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ConfigError("\(settingsURL.path) is not a JSON object")
        }
        guard let value = object["strength"] else { return nil }
        guard let text = value as? String else { throw ConfigError("\(settingsURL.path): strength is not text") }
        return text
    }

    /// Remembers `text` as the last strength (other settings kept; a damaged file is replaced).
    public func saveStrength(_ text: String) throws {
        var object: [String: Any] = [:]
        if let data = try? ConfigDirectory.read(settingsURL, limit: PreferenceStore.maxSettingsBytes),
           let old = try? JSONSerialization.jsonObject(with: data) as? [String: Any] { object = old }
        object["strength"] = text
        try ConfigDirectory.write(JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]), to: settingsURL)
    }
}
