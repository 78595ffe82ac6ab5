// A regular file replaced whole: the temporary file beside it (made at open, so an unwritable directory is
// refused before any work), the one-line reasons it cannot be made, and the signal handler's cleanup.
// SPDX-License-Identifier: Apache-2.0

import Glibc
import Synchronization

extension OutputFile {
    /// A file replaced whole: written to a temporary file beside it, renamed over it at `close()`. The
    /// file's own write permission is honoured, as `cp` does (the rename alone needs only the directory's).
    static func atomic(_ path: String, mode: mode_t?) throws(OutputFileError) -> OutputFile {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        if mode != nil && access(path, W_OK) != 0 {
            throw OutputFileError("cannot write \(path): \(errno == EROFS ? "it is on a read-only file system" : "the file is read-only (chmod u+w \(path) to allow it, or choose another name)")")
        }
        // Short, so any valid file name has room beside it (NAME_MAX is 255 bytes).
        let temporary = "\(directory).motorbreath-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw temporaryRefused(path, directory: directory, replacing: mode != nil, code: errno) }
        if let mode { _ = fchmod(fd, mode) }
        PendingTemporary.remember(temporary)
        return OutputFile(name: path, fd: fd, temporary: temporary, target: path, ownsDescriptor: true)
    }

    /// Why the temporary file beside `path` could not be made, as the user can act on it.
    private static func temporaryRefused(_ path: String, directory: String, replacing: Bool, code: Int32) -> OutputFileError {
        let place = directory.isEmpty ? "the current directory" : directory
        switch code {
        case EACCES, EPERM:
            return OutputFileError("cannot write \(path): \(place) is not writable, and \(replacing ? "a file replaced whole" : "a new file") is made there first; choose another directory")
        case EROFS:
            return OutputFileError("cannot write \(path): it is on a read-only file system")
        case ENOENT where replacing:
            return OutputFileError("cannot write \(path): no new file can be made in \(place) (\(errorText(code))), and the file is replaced whole through one; choose another directory")
        default:
            return OutputFileError("cannot write \(path): \(errorText(code))")
        }
    }

    /// From a signal handler (async-signal-safe: one atomic load and unlink): removes the temporary file
    /// of an output not yet final, so an interrupted render leaves nothing beside its target.
    public static func removeTemporaryFromSignalHandler() {
        PendingTemporary.removeFromSignalHandler()
    }
}

/// The temporary file being written, as the address of its name in C text (0: none), for a signal handler
/// to remove: a command writes one output file at a time.
enum PendingTemporary {
    private static let name = Atomic<UInt>(0)

    static func remember(_ path: String) {
        name.store(UInt(bitPattern: strdup(path)), ordering: .sequentiallyConsistent)
    }

    static func removeFromSignalHandler() {
        if let p = UnsafePointer<CChar>(bitPattern: name.load(ordering: .sequentiallyConsistent)) { unlink(p) }
    }

    /// The temporary file is renamed, kept or removed: the signal handler has nothing to remove any more.
    static func forget() {
        if let p = UnsafeMutablePointer<CChar>(bitPattern: name.exchange(0, ordering: .sequentiallyConsistent)) { free(p) }
    }
}
