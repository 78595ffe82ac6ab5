// Where a command's output goes: standard output, a device, FIFO or symlink written through, or a regular
// file replaced atomically (a temporary file renamed over it). Every write is checked; errors are one line.
// SPDX-License-Identifier: Apache-2.0

import Glibc
import Synchronization

/// A buffered byte sink. Nothing is final until `close()`: a regular file appears (or is replaced) only
/// then, whole; if the command fails first, the temporary file is removed and the old file is untouched.
final class OutputFile {
    /// "standard output" or the path, for messages.
    let name: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    /// For an atomic replace: the temporary file written, and the path it is renamed to.
    private var temporary: String?
    private var target: String?
    private let ownsDescriptor: Bool
    static let bufferSize = 1 << 20

    private init(name: String, fd: Int32, temporary: String? = nil, target: String? = nil, ownsDescriptor: Bool) {
        self.name = name
        self.fd = fd
        self.temporary = temporary
        self.target = target
        self.ownsDescriptor = ownsDescriptor
        buffer.reserveCapacity(OutputFile.bufferSize)
    }

    static func standardOutput() -> OutputFile {
        OutputFile(name: "standard output", fd: 1, ownsDescriptor: false)
    }

    /// Opens `path` for writing (`-` and /dev/stdout are standard output). A missing or regular file is written to a
    /// temporary file next to it and renamed into place at `close()`; a directory is refused; anything else
    /// (a device such as /dev/null, a FIFO, /dev/stdout, a symlink) is written through, never replaced.
    static func open(_ path: String) throws -> OutputFile {
        // Standard output as the descriptor the shell set up (so `>>` still appends).
        if path == "-" || path == "/dev/stdout" { return standardOutput() }
        var st = stat()
        if lstat(path, &st) != 0 {
            guard errno == ENOENT else { throw fail("cannot write \(path): \(errorText(errno))") }
            return try atomic(path, mode: nil)
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR:
            throw fail("cannot write \(path): it is a directory")
        case S_IFREG where st.st_nlink <= 1:
            return try atomic(path, mode: st.st_mode & 0o7777)
        case S_IFLNK:
            var target = stat()
            // A dangling link: create the file it names.
            guard stat(path, &target) == 0 else { return try through(path, flags: O_CREAT | O_TRUNC) }
            switch target.st_mode & S_IFMT {
            case S_IFDIR: throw fail("cannot write \(path): it links to a directory")
            case S_IFREG: return try through(path, flags: O_TRUNC)
            default: return try through(path, flags: 0)
            }
        default:
            // A device, FIFO or socket, or a file with several hard links: write into it as it is.
            return try through(path, flags: (st.st_mode & S_IFMT) == S_IFREG ? O_TRUNC : 0)
        }
    }

    private static func through(_ path: String, flags: Int32) throws -> OutputFile {
        let fd = Glibc.open(path, O_WRONLY | O_CLOEXEC | flags, 0o666)
        guard fd >= 0 else { throw fail("cannot write \(path): \(errorText(errno))") }
        return OutputFile(name: path, fd: fd, ownsDescriptor: true)
    }

    /// A file replaced whole: written to a temporary file beside it, renamed over it at `close()`. The
    /// file's own write permission is honoured, as `cp` does (the rename alone needs only the directory's).
    private static func atomic(_ path: String, mode: mode_t?) throws -> OutputFile {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        if mode != nil && access(path, W_OK) != 0 {
            throw fail("cannot write \(path): \(errno == EROFS ? "it is on a read-only file system" : "the file is read-only (chmod u+w \(path) to allow it, or choose another name)")")
        }
        // Short, so any valid file name has room beside it (NAME_MAX is 255 bytes).
        let temporary = "\(directory).motorbreath-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            let code = errno
            let place = directory.isEmpty ? "the current directory" : directory
            switch code {
            case EACCES, EPERM:
                throw fail("cannot write \(path): \(place) is not writable, and \(mode == nil ? "a new file" : "a file replaced whole") is made there first; choose another directory")
            case EROFS:
                throw fail("cannot write \(path): it is on a read-only file system")
            case ENOENT where mode != nil:
                throw fail("cannot write \(path): no new file can be made in \(place) (\(errorText(code))), and the file is replaced whole through one; choose another directory")
            default:
                throw fail("cannot write \(path): \(errorText(code))")
            }
        }
        if let mode { _ = fchmod(fd, mode) }
        OutputFile.pendingTemporary.store(UInt(bitPattern: strdup(temporary)), ordering: .sequentiallyConsistent)
        return OutputFile(name: path, fd: fd, temporary: temporary, target: path, ownsDescriptor: true)
    }

    /// The temporary file being written, as the address of its name in C text (0: none), for a signal
    /// handler to remove: a command writes one output file at a time.
    private static let pendingTemporary = Atomic<UInt>(0)

    /// From a signal handler (async-signal-safe: one atomic load and unlink): removes the temporary file
    /// of an output not yet final, so an interrupted render leaves nothing beside its target.
    static func removeTemporaryFromSignalHandler() {
        if let name = UnsafePointer<CChar>(bitPattern: pendingTemporary.load(ordering: .sequentiallyConsistent)) { unlink(name) }
    }

    /// The temporary file is renamed or removed: the signal handler has nothing to remove any more.
    private static func forgetTemporary() {
        if let name = UnsafeMutablePointer<CChar>(bitPattern: pendingTemporary.exchange(0, ordering: .sequentiallyConsistent)) { free(name) }
    }

    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write($0) }
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= OutputFile.bufferSize { try flush() }
    }

    func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= OutputFile.bufferSize { try flush() }
    }

    private func flush() throws {
        var done = 0
        try buffer.withUnsafeBytes { raw in
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n > 0 {
                    done += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else if n < 0 && errno == EAGAIN {
                    // A non-blocking descriptor (shared with the terminal): wait until it takes more.
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, 1000)
                } else {
                    throw fail("cannot write \(name): \(errorText(n < 0 ? errno : EIO))")
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and makes the output final; errors are one line.
    func close() throws {
        try flush()
        if ownsDescriptor {
            if temporary != nil && fsync(fd) != 0 && errno != EINVAL { throw fail("cannot write \(name): \(errorText(errno))") }
            let result = Glibc.close(fd)
            fd = -1
            guard result == 0 else { throw fail("cannot write \(name): \(errorText(errno))") }
        }
        if let temporary, let target {
            guard rename(temporary, target) == 0 else { throw fail("cannot write \(target): \(errorText(errno))") }
            OutputFile.forgetTemporary()
            self.temporary = nil
        }
    }

    deinit {
        if ownsDescriptor && fd >= 0 { Glibc.close(fd) }
        if let temporary {
            OutputFile.forgetTemporary()
            unlink(temporary)
        }
    }
}

/// The C library's text for an errno value, e.g. "No space left on device".
func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
