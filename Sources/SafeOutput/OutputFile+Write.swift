// Writing an output: buffered, every write checked (a full disk is an error, not a short file), and the
// close that makes it final. When only the rename over the target fails, the whole output is kept in its
// temporary file and the error says where: minutes of rendering are not thrown away.
// SPDX-License-Identifier: Apache-2.0

import Glibc

extension OutputFile {
    /// Buffers `text` (written when the buffer fills, or at `close()`).
    public func write(_ text: String) throws(OutputFileError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= OutputFile.bufferSize { try flush() }
    }

    /// Buffers `bytes`.
    public func write(_ bytes: [UInt8]) throws(OutputFileError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= OutputFile.bufferSize { try flush() }
    }

    func flush() throws(OutputFileError) {
        var done = 0
        var failure: Int32?
        buffer.withUnsafeBytes { raw in
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
                    failure = n < 0 ? errno : EIO
                    return
                }
            }
        }
        if let failure { throw OutputFileError("cannot write \(name): \(errorText(failure))") }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and makes the output final; errors are one line. If everything was written
    /// but the rename over the target fails, the temporary file is kept and the error's `keptAt` names it.
    public func close() throws(OutputFileError) {
        try flush()
        if ownsDescriptor {
            if temporary != nil && fsync(fd) != 0 && errno != EINVAL { throw OutputFileError("cannot write \(name): \(errorText(errno))") }
            let result = Glibc.close(fd)
            fd = -1
            guard result == 0 else { throw OutputFileError("cannot write \(name): \(errorText(errno))") }
        }
        if let temporary, let target {
            PendingTemporary.forget()
            self.temporary = nil
            guard rename(temporary, target) == 0 else {
                throw OutputFileError("cannot write \(target): \(errorText(errno))", keptAt: temporary)
            }
        }
    }
}
