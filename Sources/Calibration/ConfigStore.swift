// Where motorbreath keeps calibration profiles: JSON files in the profiles folder of the config directory
// ($XDG_CONFIG_HOME/motorbreath, else ~/.config/motorbreath). The only file I/O of this module.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Preferences

/// Where motorbreath keeps calibration profiles: JSON files in `profiles/` of the ``ConfigDirectory``
/// (`$XDG_CONFIG_HOME/motorbreath`, else `~/.config/motorbreath`). Writes replace a file whole (a reader
/// never sees half of one); a file that cannot be used is a ``ConfigError`` naming it. The only file I/O of
/// the Calibration module (the remembered strength is the Preferences module's ``PreferenceStore``).
///
///     let store = ConfigStore()
///     let path = try store.save(profile)
///     let again = try store.load(profile.name)  // nil when there is none
public struct ConfigStore: Sendable {
    /// The config directory holding the profiles folder.
    public let directory: URL

    /// The store at `directory`, or the XDG one from `environment`.
    public init(directory: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.directory = ConfigDirectory(directory: directory, environment: environment).url
    }

    var profiles: URL { directory.appendingPathComponent("profiles") }

    /// The file of the profile `name` (a name, not a path: `/` and leading dots are refused).
    public func profileURL(_ name: String) throws -> URL {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            throw ConfigError("a profile name is a word such as 5349424f41524400-wrist, not '\(name)'")
        }
        return profiles.appendingPathComponent(name + ".json")
    }

    /// Makes the profiles folder if it is missing and checks a profile can be saved there (before a
    /// calibration starts: minutes of answers are not lost to a folder that cannot be written).
    public func checkWritable() throws(ConfigError) {
        try ConfigDirectory.checkWritable(profiles)
    }

    /// Saves `profile` under its name (board id and spot), replacing the file whole; returns the path.
    @discardableResult
    public func save(_ profile: CalibrationProfile) throws -> URL {
        let url = try profileURL(profile.name)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try ConfigDirectory.write(encoder.encode(profile), to: url)
        return url
    }

    /// The largest profile read (one is about 2 KB).
    public static let maxProfileBytes = 64 << 10

    /// The profile `name`, or nil when there is none; a file that cannot be read, is too large, is not a
    /// profile or has a field out of range is an error naming the file and the field.
    public func load(_ name: String) throws -> CalibrationProfile? {
        let url = try profileURL(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try ConfigDirectory.read(url, limit: ConfigStore.maxProfileBytes)
        do {
            return try JSONDecoder().decode(CalibrationProfile.self, from: data).checked()
        } catch let error as DecodingError {
            throw ConfigError("profile \(url.path): \(ConfigStore.describe(error))")
        } catch {
            throw ConfigError("profile \(url.path): \(error)")
        }
    }

    /// A decoding error as one line naming the field ("lag_s: expected a number").
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [CodingKey]) -> String { keys.isEmpty ? "top level" : keys.map(\.stringValue).joined(separator: ".") }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])): missing"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)): expected \(type == String.self ? "text" : "a number or value of \(type)")"
        case .valueNotFound(_, let context): return "\(path(context.codingPath)): missing (null)"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context.codingPath)): not valid"
        @unknown default: return "cannot be read"
        }
    }

    /// Names of the saved profiles.
    public func profileNames() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: profiles.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }
}

/// A config file that cannot be used (the Preferences module's, here for code that imports Calibration only).
public typealias ConfigError = Preferences.ConfigError
