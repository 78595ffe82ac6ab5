// `--control-socket PATH`: a Unix stream socket for other programs. Any number of clients; each sends
// commands as JSON lines and receives every event as a JSON line (the latest command wins). Events wait
// in a bounded queue per client (EventQueue): the session never waits for a client, and a line is never
// split between clients' writes. The socket file is removed at the end only if it is still ours.
// SPDX-License-Identifier: Apache-2.0

import Glibc
import HostPlatform

/// `--control-socket PATH`: a Unix stream socket serving the control protocol to any number of clients.
public final class ControlSocket: @unchecked Sendable {
    private let path: String
    private let listener: Int32
    private let hub: ControlHub
    private let lock = Mutex()
    private var clients: [Int32: Client] = [:]
    /// The socket file we bound (device, inode): removed at the end only if the path still names it.
    private var boundFile: (dev: UInt64, ino: UInt64)?

    private struct Client {
        var input = LineReader()
        var queue = EventQueue()
        /// The rest of the line being written (a partial write leaves it here, to go first).
        var writing: ArraySlice<UInt8> = []
        var hasOutput: Bool { !writing.isEmpty || !queue.isEmpty }
    }
    private var running = true
    private var thread: pthread_t?

    /// Listens on `path` with permissions `mode` (0600: only this user). A live server there is refused
    /// ("PATH is in use by pid N"), a stale socket file left by a crashed run is replaced, anything that is
    /// not a socket is left alone (an error).
    public init(path: String, hub: ControlHub, mode: mode_t = 0o600) throws {
        self.path = path
        self.hub = hub
        try ControlSocket.claim(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ControlError("cannot create a socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            Glibc.close(fd)
            throw ControlError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, b) in bytes.enumerated() { buffer[i] = b }
            buffer[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // The permissions are set before listen(): until then nobody can connect.
        guard bound == 0, chmod(path, mode) == 0, listen(fd, 8) == 0 else {
            let why = String(cString: strerror(errno))
            Glibc.close(fd)
            if bound == 0 { unlink(path) }  // ours: bound a moment ago
            throw ControlError("cannot listen on \(path): \(why)")
        }
        listener = fd
        var st = stat()
        if lstat(path, &st) == 0 { boundFile = (UInt64(st.st_dev), UInt64(st.st_ino)) }
        _ = hub.addSink { [weak self] line in self?.broadcast(line) }
        thread = startThread { self.serve() }
    }

    /// Makes `path` free to bind: nothing there, or a stale socket (removed). Throws when a live server
    /// answers there, or the path is something other than a socket.
    public static func claim(_ path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        guard (st.st_mode & S_IFMT) == S_IFSOCK else { throw ControlError("\(path) exists and is not a socket (left as it is)") }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw ControlError("cannot create a socket: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(probe) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw ControlError("socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, b) in bytes.enumerated() { buffer[i] = b }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if connected == 0 {
            var cred: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)  // struct ucred (needs _GNU_SOURCE in C)
            var length = socklen_t(MemoryLayout.size(ofValue: cred))
            let who = getsockopt(probe, SOL_SOCKET, SO_PEERCRED, &cred, &length) == 0 && cred.pid > 0 ? "pid \(cred.pid)" : "another program"
            throw ControlError("\(path) is in use by \(who)")
        }
        guard errno == ECONNREFUSED else {
            throw ControlError("cannot use \(path): \(String(cString: strerror(errno)))")
        }
        unlink(path)  // a socket nobody listens on: left by a run that crashed
    }

    private func serve() {
        while lock.withLock({ running }) {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            fds += lock.withLock {
                clients.map { pollfd(fd: $0.key, events: Int16(POLLIN) | ($0.value.hasOutput ? Int16(POLLOUT) : 0), revents: 0) }
            }
            guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }  // 100 ms: how soon close() is seen
            if fds[0].revents & Int16(POLLIN) != 0 {
                let c = accept(listener, nil, nil)
                if c >= 0 {
                    _ = fcntl(c, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK)
                    // A late client learns at once where the session is; one joining while the board is being
                    // greeted gets `prepared` once, first.
                    hub.welcome(add: { lock.withLock { clients[c] = Client() } }, send: { send($0, to: c) })
                }
            }
            for p in fds.dropFirst() where p.revents & Int16(POLLOUT) != 0 {
                lock.withLock { flushLocked(p.fd) }
            }
            for p in fds.dropFirst() where p.revents & ~Int16(POLLOUT) != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = read(p.fd, &buffer, buffer.count)
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if n <= 0 {
                    drop(p.fd)
                    continue
                }
                var reader = lock.withLock { clients[p.fd]?.input ?? LineReader() }
                let items = reader.feed(buffer[0..<n])
                lock.withLock { clients[p.fd]?.input = reader }
                for item in items {
                    switch item {
                    case .line(let line): if let error = hub.handle(line: line) { send(error, to: p.fd) }
                    case .tooLong: send(ErrorEvent(message: LineReader.tooLongMessage).line, to: p.fd)
                    }
                }
            }
        }
    }

    /// Queues `line` for one client and writes what the socket takes now (never waiting).
    private func send(_ line: String, to fd: Int32) {
        lock.withLock {
            clients[fd]?.queue.append(line)
            flushLocked(fd)
        }
    }

    private func broadcast(_ line: String) {
        lock.withLock {
            for fd in Array(clients.keys) {
                clients[fd]?.queue.append(line)
                flushLocked(fd)
            }
        }
    }

    /// Writes a client's queued lines until its socket is full (the rest waits for POLLOUT). A partial
    /// write keeps the rest of its line to go first: lines are never split or interleaved.
    private func flushLocked(_ fd: Int32) {
        while var c = clients[fd] {
            if c.writing.isEmpty {
                guard let line = c.queue.next() else { return }
                c.writing = Array(line.utf8)[...]
            }
            let n = c.writing.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR {
                    clients[fd] = c
                    return
                }
                clients.removeValue(forKey: fd)
                Glibc.close(fd)
                return
            }
            c.writing = c.writing.dropFirst(n)
            clients[fd] = c
        }
    }

    private func drop(_ fd: Int32) {
        lock.withLock {
            if clients.removeValue(forKey: fd) != nil { Glibc.close(fd) }
        }
    }

    /// Closes every client and removes the socket file if it is still the one we made (another server
    /// may have replaced it since).
    public func close() {
        lock.withLock { running = false }
        if let t = thread {
            pthread_join(t, nil)
            thread = nil
        }
        // The last events (finished) go to every client still reading, for up to a second.
        let deadline = MonotonicClock.nowNs() + 1_000_000_000
        while MonotonicClock.nowNs() < deadline {
            var fds = lock.withLock { clients.filter(\.value.hasOutput).map { pollfd(fd: $0.key, events: Int16(POLLOUT), revents: 0) } }
            if fds.isEmpty { break }
            guard poll(&fds, nfds_t(fds.count), 50) >= 0 || errno == EINTR else { break }
            lock.withLock { for p in fds where p.revents != 0 { flushLocked(p.fd) } }
        }
        lock.withLock {
            for fd in clients.keys { Glibc.close(fd) }
            clients.removeAll()
        }
        Glibc.close(listener)
        var st = stat()
        if let bound = boundFile, lstat(path, &st) == 0, UInt64(st.st_dev) == bound.dev, UInt64(st.st_ino) == bound.ino {
            unlink(path)
        }
    }
}
