// Nonblocking reads and writes on a file descriptor, waited on with poll(): shared by the tty links.
// SPDX-License-Identifier: Apache-2.0

import Glibc

/// Owns an open, nonblocking descriptor. Reads wait at most their timeout; close is idempotent.
final class FDStream: @unchecked Sendable {
    let name: String
    private var fd: Int32
    private let lock = Mutex()
    private let waker = Waker()

    init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
    }

    deinit { close() }

    var descriptor: Int32 { lock.withLock { fd } }

    func write(_ bytes: [UInt8], timeoutMs: Int) throws(LinkError) {
        let fd = descriptor
        guard fd >= 0 else { throw .closed }
        var offset = 0
        let deadline = MonotonicClock.nowNs() + UInt64(timeoutMs) * 1_000_000
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n > 0 {
                offset += n
                continue
            }
            let e = errno
            if n < 0 && e != EAGAIN && e != EINTR { throw LinkError.from(errno: e, path: name, operation: "write") }
            let now = MonotonicClock.nowNs()
            guard now < deadline else { throw .writeTimeout(path: name) }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, Int32(min(100, (deadline - now) / 1_000_000 + 1)))
        }
    }

    func read(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8] {
        let fd = descriptor
        guard fd >= 0 else { throw .closed }
        let revents = waker.poll(fd, events: Int16(POLLIN), timeoutMs: timeoutMs)
        if revents <= 0 { return [] }  // timeout, woken, or EINTR: the caller loops and checks for shutdown
        if revents & Int16(POLLIN) == 0 && revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            throw .disconnected(path: name)
        }
        // Read straight into the array returned (no zeroed buffer and no copy: this runs at every wake-up).
        var n = 0, e: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: max(1, maxBytes)) { buffer, count in
            n = Glibc.read(fd, buffer.baseAddress!, maxBytes)
            e = errno
            count = max(0, n)
        }
        if n < 0 {
            if e == EAGAIN || e == EINTR { return [] }
            throw LinkError.from(errno: e, path: name, operation: "read")
        }
        if n == 0 { throw .disconnected(path: name) }
        return bytes
    }

    /// Waits `timeoutMs` or until `wake()`, not for bytes, then returns what is there without waiting.
    func readAfterWaiting(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8] {
        guard descriptor >= 0 else { throw .closed }
        _ = waker.wait(timeoutMs: timeoutMs)
        return try read(maxBytes: maxBytes, timeoutMs: 0)
    }

    func wake() { waker.wake() }

    func close() {
        waker.wake()
        lock.withLock {
            if fd >= 0 {
                Glibc.close(fd)
                fd = -1
            }
        }
    }
}
