// Where motorbreath keeps what a person set once: calibration profiles and the last strength, as JSON in
// $XDG_CONFIG_HOME/motorbreath (else ~/.config/motorbreath). The only file I/O of this module.

import Foundation

public struct ConfigStore: Sendable {
    public let directory: URL

    /// The store at `directory`, or the XDG one from `environment`.
    public init(directory: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let directory {
            self.directory = directory
        } else if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            self.directory = URL(fileURLWithPath: xdg).appendingPathComponent("motorbreath")
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            self.directory = URL(fileURLWithPath: home).appendingPathComponent(".config/motorbreath")
        }
    }

    var profiles: URL { directory.appendingPathComponent("profiles") }

    /// The file of the profile `name` (a name, not a path: `/` and leading dots are refused).
    public func profileURL(_ name: String) throws -> URL {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            throw ConfigError("a profile name is a word such as 5349424f41524400-wrist, not '\(name)'")
        }
        return profiles.appendingPathComponent(name + ".json")
    }

    /// Saves `profile` under its name (board id and spot), replacing the file whole; returns the path.
    @discardableResult
    public func save(_ profile: CalibrationProfile) throws -> URL {
        let url = try profileURL(profile.name)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try write(encoder.encode(profile), to: url)
        return url
    }

    /// The profile `name`, or nil when there is none; a file that cannot be read is an error.
    public func load(_ name: String) throws -> CalibrationProfile? {
        let url = try profileURL(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(CalibrationProfile.self, from: Data(contentsOf: url))
        } catch {
            throw ConfigError("profile \(url.path) cannot be read: \(error.localizedDescription)")
        }
    }

    /// Names of the saved profiles.
    public func profileNames() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: profiles.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    // MARK: - the last strength

    var settingsURL: URL { directory.appendingPathComponent("settings.json") }

    /// The strength last given with --strength (its text: off, subtle, moderate, strong or a number).
    public func lastStrength() -> String? {
        guard let data = try? Data(contentsOf: settingsURL),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["strength"] as? String
    }

    public func saveStrength(_ text: String) throws {
        var object: [String: Any] = [:]
        if let data = try? Data(contentsOf: settingsURL),
           let old = try? JSONSerialization.jsonObject(with: data) as? [String: Any] { object = old }
        object["strength"] = text
        try write(JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]), to: settingsURL)
    }

    /// Writes `data` to a temporary file beside `url` and renames it over (a reader never sees half a file).
    func write(_ data: Data, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        try data.write(to: temporary)
        if rename(temporary.path, url.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw ConfigError("cannot write \(url.path): \(String(cString: strerror(errno)))")
        }
    }
}

public struct ConfigError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
