// Where motorbreath keeps what a person set once: calibration profiles and the last strength, as JSON in
// $XDG_CONFIG_HOME/motorbreath (else ~/.config/motorbreath). The only file I/O of this module.

import Foundation

/// Where motorbreath keeps what a person set once: calibration profiles and the last strength, as JSON files
/// in `$XDG_CONFIG_HOME/motorbreath` (else `~/.config/motorbreath`). Writes replace a file whole (a reader
/// never sees half of one); a file that cannot be used is a ``ConfigError`` naming it. The only file I/O of
/// the Calibration module.
///
///     let store = ConfigStore()
///     let path = try store.save(profile)
///     let again = try store.load(profile.name)  // nil when there is none
///     try store.saveStrength("moderate")
public struct ConfigStore: Sendable {
    /// The directory holding the profiles and the settings file.
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

    /// The largest profile read (one is about 2 KB).
    public static let maxProfileBytes = 64 << 10
    /// The largest settings file read (one is a few lines).
    public static let maxSettingsBytes = 64 << 10

    /// The profile `name`, or nil when there is none; a file that cannot be read, is too large, is not a
    /// profile or has a field out of range is an error naming the file and the field.
    public func load(_ name: String) throws -> CalibrationProfile? {
        let url = try profileURL(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try ConfigStore.read(url, limit: ConfigStore.maxProfileBytes)
        do {
            return try JSONDecoder().decode(CalibrationProfile.self, from: data).checked()
        } catch let error as DecodingError {
            throw ConfigError("profile \(url.path): \(ConfigStore.describe(error))")
        } catch {
            throw ConfigError("profile \(url.path): \(error)")
        }
    }

    /// A file's bytes, refused from its size before reading when over `limit`; errors are one line.
    static func read(_ url: URL, limit: Int) throws(ConfigError) -> Data {
        var st = stat()
        guard stat(url.path, &st) == 0 else { throw ConfigError("cannot read \(url.path): \(String(cString: strerror(errno)))") }
        guard st.st_mode & S_IFMT == S_IFREG else { throw ConfigError("\(url.path) is not a regular file") }
        guard Int(st.st_size) <= limit else {
            throw ConfigError("\(url.path) is \(st.st_size) bytes, more than the \(limit >> 10) KB such a file may have")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ConfigError("cannot read \(url.path): \(String(cString: strerror(errno)))")
        }
        return data
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

    // MARK: - the last strength

    var settingsURL: URL { directory.appendingPathComponent("settings.json") }

    /// The strength last given with --strength (its text: off, subtle, moderate, strong or a number), nil
    /// when none was saved; a settings file that cannot be read is an error naming it.
    public func lastStrength() throws(ConfigError) -> String? {
        guard FileManager.default.fileExists(atPath: settingsURL.path) else { return nil }
        let data = try ConfigStore.read(settingsURL, limit: ConfigStore.maxSettingsBytes)
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
        if let data = try? ConfigStore.read(settingsURL, limit: ConfigStore.maxSettingsBytes),
           let old = try? JSONSerialization.jsonObject(with: data) as? [String: Any] { object = old }
        object["strength"] = text
        try write(JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]), to: settingsURL)
    }

    /// Writes `data` to a temporary file beside `url` and renames it over (a reader never sees half a file).
    func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        if let code = ConfigStore.makeDirectories(directory.path) {
            throw ConfigError("cannot write \(url.path): cannot make its directory \(directory.path) (\(String(cString: strerror(code))))")
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do { try data.write(to: temporary) } catch {
            throw ConfigError("cannot write \(url.path): \(ConfigStore.reason(error))")
        }
        if rename(temporary.path, url.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw ConfigError("cannot write \(url.path): \(String(cString: strerror(errno)))")
        }
    }
}

extension ConfigStore {
    /// `mkdir -p path` (mode 0700: profiles are a person's): nil, or the errno of the step that failed.
    static func makeDirectories(_ path: String) -> Int32? {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o700) != 0 && errno != EEXIST { return errno }
        }
        var st = stat()
        guard stat(path, &st) == 0 else { return errno }
        return st.st_mode & S_IFMT == S_IFDIR ? nil : ENOTDIR
    }

    /// The system's reason inside a Foundation file error ("Permission denied"), not its whole dump.
    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        switch ns.code {
        case NSFileWriteNoPermissionError, NSFileReadNoPermissionError: return "Permission denied"
        case NSFileWriteOutOfSpaceError: return "No space left on device"
        case NSFileWriteVolumeReadOnlyError: return "Read-only file system"
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "No such file or directory"
        default: return ns.localizedDescription
        }
    }
}

/// A config file that cannot be used, as one line naming the file (and the field).
public struct ConfigError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
