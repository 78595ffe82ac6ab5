// `--control-socket PATH`: a Unix stream socket for other programs. Any number of clients; each sends
// commands as JSON lines and receives every event as a JSON line (the latest command wins).

import Glibc
import SerialLink

final class ControlSocket: @unchecked Sendable {
    private let path: String
    private let listener: Int32
    private let hub: ControlHub
    private let lock = Mutex()
    private var clients: [Int32: [UInt8]] = [:]
    private var running = true
    private var thread: pthread_t?

    /// Listens on `path` (a stale socket file left by a crashed run is replaced; anything else is not).
    init(path: String, hub: ControlHub) throws {
        self.path = path
        self.hub = hub
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else { throw ControlError("\(path) exists and is not a socket") }
            unlink(path)
        }
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
        guard bound == 0, listen(fd, 8) == 0 else {
            let why = String(cString: strerror(errno))
            Glibc.close(fd)
            throw ControlError("cannot listen on \(path): \(why)")
        }
        listener = fd
        _ = hub.addSink { [weak self] line in self?.broadcast(line) }
        thread = startThread { self.serve() }
    }

    private func serve() {
        while lock.withLock({ running }) {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            fds += lock.withLock { clients.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } }
            guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }  // 100 ms: how soon close() is seen
            if fds[0].revents & Int16(POLLIN) != 0 {
                let c = accept(listener, nil, nil)
                if c >= 0 {
                    _ = fcntl(c, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK)
                    lock.withLock { clients[c] = [] }
                    if let hello = hub.greeting { send(hello, to: c) }
                }
            }
            for p in fds.dropFirst() where p.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = read(p.fd, &buffer, buffer.count)
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if n <= 0 {
                    drop(p.fd)
                    continue
                }
                var pending = lock.withLock { clients[p.fd] ?? [] } + buffer[0..<n]
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    if line.isEmpty { continue }
                    if let error = hub.handle(line: line) { send(error, to: p.fd) }
                }
                if pending.count > 65_536 { pending.removeAll() }  // no newline in 64 KB: not our protocol
                lock.withLock { if clients[p.fd] != nil { clients[p.fd] = pending } }
            }
        }
    }

    private func send(_ line: String, to fd: Int32) {
        let bytes = Array(line.utf8)
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno != EAGAIN { drop(fd) }
    }

    private func broadcast(_ line: String) {
        for fd in lock.withLock({ Array(clients.keys) }) { send(line, to: fd) }
    }

    private func drop(_ fd: Int32) {
        lock.withLock {
            if clients.removeValue(forKey: fd) != nil { Glibc.close(fd) }
        }
    }

    /// Closes every client and removes the socket file.
    func close() {
        lock.withLock { running = false }
        if let t = thread {
            pthread_join(t, nil)
            thread = nil
        }
        lock.withLock {
            for fd in clients.keys { Glibc.close(fd) }
            clients.removeAll()
        }
        Glibc.close(listener)
        unlink(path)
    }
}
