// motorbreath's config directory, $XDG_CONFIG_HOME/motorbreath (else ~/.config/motorbreath): where it is,
// reading a file with a size limit, replacing a file whole, and the one-line error naming the file.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// motorbreath's config directory: `$XDG_CONFIG_HOME/motorbreath`, else `~/.config/motorbreath` (a relative
/// XDG path is ignored, as XDG says). Files are read with a size limit checked before reading and written
/// whole (a temporary file renamed over: a reader never sees half of one); errors are a ``ConfigError``.
/// Calibration's profiles (`ConfigStore`) and the preferences (``PreferenceStore``) live here.
///
///     let dir = ConfigDirectory()
///     let data = try ConfigDirectory.read(dir.url.appendingPathComponent("settings.json"), limit: 64 << 10)
public struct ConfigDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// `directory`, or the XDG one from `environment`.
    public init(directory: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let directory {
            url = directory
        } else if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            url = URL(fileURLWithPath: xdg).appendingPathComponent("motorbreath")
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            url = URL(fileURLWithPath: home).appendingPathComponent(".config/motorbreath")
        }
    }

    /// A file's bytes, refused from its size before reading when over `limit`; errors are one line.
    public static func read(_ url: URL, limit: Int) throws(ConfigError) -> Data {
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

    /// Writes `data` to a temporary file beside `url` and renames it over (a reader never sees half a file);
    /// makes the directories first (mode 0700: what a person set is theirs).
    public static func write(_ data: Data, to url: URL) throws(ConfigError) {
        let directory = url.deletingLastPathComponent()
        if let code = makeDirectories(directory.path) {
            throw ConfigError("cannot write \(url.path): cannot make its directory \(directory.path) (\(String(cString: strerror(code))))")
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do { try data.write(to: temporary) } catch {
            throw ConfigError("cannot write \(url.path): \(reason(error))")
        }
        if rename(temporary.path, url.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw ConfigError("cannot write \(url.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Checks that a file can be saved in `directory` without making anything: an existing one by making and
    /// removing a file, a missing one by its nearest existing ancestor (a directory we may write in). What a
    /// command that measures for minutes checks before it starts, so its result is not lost at the end.
    public static func checkWritable(_ directory: URL) throws(ConfigError) {
        // Nothing is made here: a folder that does not exist yet is made when something is saved into it, so
        // a run that saves nothing leaves no trace. Its nearest existing ancestor must be a directory we can
        // write in; an existing folder is probed with a file made and removed at once.
        var path = directory.path, st = stat()
        while stat(path, &st) != 0 {
            guard errno == ENOENT else {  // ENOTDIR: a file stands where a folder on the way should be
                throw ConfigError("cannot write in \(directory.path): cannot make it (\(String(cString: strerror(errno))))")
            }
            let parent = (path as NSString).deletingLastPathComponent
            if parent == path || parent.isEmpty { break }
            path = parent
        }
        let exists = path == directory.path
        guard st.st_mode & S_IFMT == S_IFDIR else {
            throw ConfigError("cannot write in \(directory.path): \(exists ? "it is not a directory" : "cannot make it (\(String(cString: strerror(ENOTDIR))))")")
        }
        guard exists else {
            guard access(path, W_OK | X_OK) == 0 else {
                throw ConfigError("cannot write in \(directory.path): cannot make it (\(String(cString: strerror(errno))))")
            }
            return
        }
        let probe = directory.appendingPathComponent(".motorbreath-check-\(getpid()).tmp").path
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ConfigError("cannot write in \(directory.path): \(String(cString: strerror(errno)))") }
        close(fd)
        unlink(probe)
    }

    /// `mkdir -p path` (mode 0700): nil, or the errno of the step that failed.
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
