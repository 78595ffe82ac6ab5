// `motorbreath serve`'s HTTP server: the page's files (package resources), the WebSocket at /ws, each
// request checked by WebGuard first. FlyingFox runs on Swift's concurrency threads; start() and stop()
// are for the command line's plain threads.
// SPDX-License-Identifier: Apache-2.0

import Breath
import FlyingFox
import FlyingSocks
import Foundation
import MotorControl

/// The page's server: static files, the control protocol on a WebSocket, the guard in front of both.
public final class BreathWebServer: @unchecked Sendable {
    private let server: HTTPServer
    private let rules = GuardBox()
    private let sockets = SocketCount()
    private let preview = PreviewSettings()
    /// AHAP files the page asked to play (`POST /api/play`); serve sets `files.onRequest` to take them.
    public let files = FileRequests()
    private let host: String
    private let token: String?
    private let requestedPort: UInt16
    private var runTask: Task<Void, Never>?

    /// Called once when the last open page closes (for `--stop-when-closed`).
    public var onLastPageClosed: (@Sendable () -> Void)? {
        get { sockets.onLastClosed }
        set { sockets.onLastClosed = newValue }
    }

    /// The number of pages connected now.
    public var pages: Int { sockets.count }

    /// Listens on `host` (an IPv4 or IPv6 address) and `port` (0: a free one); `token` (nil on loopback)
    /// is then required by the page, the API and the WebSocket.
    public init(hub: ControlHub, host: String, port: UInt16, token: String?) throws {
        self.host = host
        self.token = token
        requestedPort = port
        let address: any SocketAddress
        do {
            address = host.contains(":") ? try sockaddr_in6.inet6(ip6: host, port: port) as any SocketAddress
                : try sockaddr_in.inet(ip4: host, port: port) as any SocketAddress
        } catch {
            throw ControlError("--listen takes an IP address such as 127.0.0.1, 0.0.0.0 or ::1, got \(host)")
        }
        server = HTTPServer(address: address, timeout: 15, logger: .disabled)
        let rules = self.rules
        let page = PageFiles()
        let recent = RecentPhases()
        _ = hub.addSink { recent.note($0) }
        let ws = WebSocketHTTPHandler(handler: HubSocket(hub: hub, count: sockets, recent: recent))
        let root = GuardedHandler(rules: rules, page: page, webSocket: ws, preview: preview, files: files)
        Task.detached { [server] in await server.appendRoute("*", to: root) }.waitBlocking()
    }

    /// Previews are rendered for this motor at this frame rate (the board's, once it is prepared; until
    /// then the reference ERM at 250 Hz).
    public func renderPreviews(motor: MotorProfile, frameRate: Int) { preview.set(motor: motor, frameRate: frameRate) }

    /// Starts listening; returns the port (useful with port 0). Throws one line when it cannot listen.
    public func start() throws -> UInt16 {
        let failure = Box<Error>()
        let server = self.server
        runTask = Task.detached {
            do { try await server.run() } catch { failure.value = error }
        }
        let port = Box<UInt16>()
        Task.detached {
            for _ in 0..<500 {  // 5 s
                if failure.value != nil { return }
                if let address = await server.listeningAddress {
                    switch address {
                    case .ip4(_, let p), .ip6(_, let p): port.value = p
                    case .unix: break
                    }
                    return
                }
                try? await Task.sleep(nanoseconds: 10_000_000)
            }
        }.waitBlocking()
        guard let listening = port.value else {
            let why: String
            switch failure.value {
            case SocketError.failed(_, let errno, _)? where errno == EADDRINUSE:
                why = "port \(requestedPort) is in use (another motorbreath serve? --http-port 0 picks a free one)"
            case SocketError.failed(_, let errno, let message)? where errno == EACCES:
                why = "\(message) (ports below 1024 need root; pick --http-port 8780)"
            case let error?: why = "\(error)"
            case nil: why = "it did not start within 5 s"
            }
            throw ControlError("cannot listen on \(host): \(why)")
        }
        rules.set(WebGuard(token: token, port: listening))
        return listening
    }

    /// Throws (one line) when `host:port` cannot be listened on now: checked before the board is opened, so a
    /// port in use never resets a board. Port 0 is always free.
    public static func checkFree(host: String, port: UInt16) throws {
        guard port != 0 else { return }
        let six = host.contains(":")
        let fd = socket(six ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        if six {
            var a = sockaddr_in6()
            a.sin6_family = sa_family_t(AF_INET6)
            a.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host, &a.sin6_addr)
            bound = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        } else {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &a.sin_addr)
            bound = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
        guard bound != 0 else { return }
        if errno == EADDRINUSE { throw ControlError("cannot listen on \(host): port \(port) is in use (another motorbreath serve? --http-port 0 picks a free one)") }
        throw ControlError("cannot listen on \(host):\(port): \(String(cString: strerror(errno)))")
    }

    /// Closes the listening socket and every connection (waits up to a second for them).
    public func stop() {
        let server = self.server
        Task.detached { await server.stop(timeout: 1) }.waitBlocking()
        runTask = nil
    }
}

/// A value set from one task and read from another.
final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?
    var value: T? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// The guard, set once the port is known.
final class GuardBox: @unchecked Sendable {
    private let lock = NSLock()
    private var rules = WebGuard(token: "not listening yet", port: 0)
    func set(_ g: WebGuard) { lock.withLock { rules = g } }
    var current: WebGuard { lock.withLock { rules } }
}

extension Task where Failure == Never {
    /// Waits on this plain thread for the task (never call from a task).
    func waitBlocking() {
        let done = DispatchSemaphore(value: 0)
        Task<Void, Never>.detached {
            _ = await self.value
            done.signal()
        }
        done.wait()
    }
}
