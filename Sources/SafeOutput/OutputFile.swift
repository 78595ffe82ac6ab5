// Where a command's output goes: standard output, a device, FIFO or symlink written through, or a regular
// file replaced atomically (a temporary file renamed over it), so a file the user may not write, or a file
// half written, is never what is left behind. Opening decides which, and refuses at once what cannot work.
// SPDX-License-Identifier: Apache-2.0

import Glibc

/// A buffered byte sink for a command's output (render's frames, benchmark's report). Nothing is final
/// until `close()`: a regular file appears (or is replaced) only then, whole; if the command fails first,
/// the temporary file is removed and the old file is untouched. Opening it is the check that the
/// destination can be written, so a command opens it before its long work. Errors are one
/// ``OutputFileError`` line.
///
///     let out = try OutputFile.open("breath.csv")   // refused here, before any rendering
///     try out.write("time_s,duty\n")
///     try out.close()                               // renamed into place
public final class OutputFile {
    /// "standard output" or the path, for messages.
    public let name: String
    var fd: Int32
    var buffer: [UInt8] = []
    /// For an atomic replace: the temporary file written, and the path it is renamed to.
    var temporary: String?
    var target: String?
    let ownsDescriptor: Bool
    static let bufferSize = 1 << 20

    init(name: String, fd: Int32, temporary: String? = nil, target: String? = nil, ownsDescriptor: Bool) {
        self.name = name
        self.fd = fd
        self.temporary = temporary
        self.target = target
        self.ownsDescriptor = ownsDescriptor
        buffer.reserveCapacity(OutputFile.bufferSize)
    }

    /// Standard output, as the descriptor the shell set up (so `>>` still appends).
    public static func standardOutput() -> OutputFile {
        OutputFile(name: "standard output", fd: 1, ownsDescriptor: false)
    }

    /// Opens `path` for writing (`-` and /dev/stdout are standard output). A missing or regular file is written to a
    /// temporary file next to it and renamed into place at `close()`; a directory is refused; anything else
    /// (a device such as /dev/null, a FIFO, /dev/stdout, a symlink) is written through, never replaced.
    public static func open(_ path: String) throws(OutputFileError) -> OutputFile {
        if path == "-" || path == "/dev/stdout" { return standardOutput() }
        var st = stat()
        if lstat(path, &st) != 0 {
            guard errno == ENOENT else { throw OutputFileError("cannot write \(path): \(errorText(errno))") }
            return try atomic(path, mode: nil)
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR:
            throw OutputFileError("cannot write \(path): it is a directory")
        case S_IFREG where st.st_nlink <= 1:
            return try atomic(path, mode: st.st_mode & 0o7777)
        case S_IFLNK:
            return try throughLink(path)
        default:
            // A device, FIFO or socket, or a file with several hard links: write into it as it is.
            return try through(path, flags: (st.st_mode & S_IFMT) == S_IFREG ? O_TRUNC : 0)
        }
    }

    /// A symlink is written through to what it names; a dangling one creates the file it names.
    private static func throughLink(_ path: String) throws(OutputFileError) -> OutputFile {
        var target = stat()
        guard stat(path, &target) == 0 else { return try through(path, flags: O_CREAT | O_TRUNC) }
        switch target.st_mode & S_IFMT {
        case S_IFDIR: throw OutputFileError("cannot write \(path): it links to a directory")
        case S_IFREG: return try through(path, flags: O_TRUNC)
        default: return try through(path, flags: 0)
        }
    }

    private static func through(_ path: String, flags: Int32) throws(OutputFileError) -> OutputFile {
        let fd = Glibc.open(path, O_WRONLY | O_CLOEXEC | flags, 0o666)
        guard fd >= 0 else { throw OutputFileError("cannot write \(path): \(errorText(errno))") }
        return OutputFile(name: path, fd: fd, ownsDescriptor: true)
    }

    deinit {
        if ownsDescriptor && fd >= 0 { Glibc.close(fd) }
        if let temporary {
            PendingTemporary.forget()
            unlink(temporary)
        }
    }
}

/// Why an output cannot be written, as one line naming the path ("cannot write x.csv: it is a directory").
public struct OutputFileError: Error, CustomStringConvertible, Sendable {
    /// The line, without a program name.
    public var description: String
    /// Where the whole output is kept when only its last step (the rename over the target) failed.
    public var keptAt: String?

    /// The error `description`.
    public init(_ description: String, keptAt: String? = nil) {
        self.description = description
        self.keptAt = keptAt
    }
}

/// The C library's text for an errno value, e.g. "No space left on device".
public func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
