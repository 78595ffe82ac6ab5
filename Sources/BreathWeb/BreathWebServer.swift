// `motorbreath serve`'s HTTP server: the page's files (package resources), the WebSocket at /ws, each
// request checked by WebGuard first, every connection held to ServerLimits by a ConnectionGuard. Hummingbird
// runs on SwiftNIO's event loops and Swift's concurrency threads; start() and stop() are for the command
// line's plain threads.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import MotorControl
import NIOCore

/// The page's server: static files, the control protocol on a WebSocket, the guard in front of both, and
/// the bounds every connection is held to (``ServerLimits``).
public final class BreathWebServer: @unchecked Sendable {
    private let rules = GuardBox()
    private let sockets = SocketCount()
    private let preview = PreviewSettings()
    private let open = OpenConnections()
    private let recent = RecentPhases()
    /// AHAP files the page asked to play (`POST /api/play`); serve sets `files.onRequest` to take them.
    public let files = FileRequests()
    /// The bounds every connection is held to.
    public let limits: ServerLimits
    private let host: String
    private let token: String?
    private let requestedPort: UInt16
    private let hub: ControlHub
    private var runTask: Task<Void, Never>?
    private let ended = DispatchSemaphore(value: 0)

    /// Called once when the last open page closes (for `--stop-when-closed`).
    public var onLastPageClosed: (@Sendable () -> Void)? {
        get { sockets.onLastClosed }
        set { sockets.onLastClosed = newValue }
    }

    /// The number of pages connected now.
    public var pages: Int { sockets.count }

    /// The number of connections open now (pages, their WebSockets, requests).
    public var connections: Int { open.count }

    /// Listens on `host` (an IPv4 or IPv6 address) and `port` (0: a free one); `token` (nil on loopback)
    /// is then required by the page, the API and the WebSocket.
    public init(hub: ControlHub, host: String, port: UInt16, token: String?, limits: ServerLimits = ServerLimits()) throws {
        var v4 = in_addr(), v6 = in6_addr()
        guard inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1 else {
            throw ControlError("--listen takes an IP address such as 127.0.0.1, 0.0.0.0 or ::1, got \(host)")
        }
        self.host = host
        self.token = token
        self.hub = hub
        self.limits = limits
        requestedPort = port
        let recent = self.recent
        _ = hub.addSink { recent.note($0) }
    }

    /// Previews are rendered for this motor at this frame rate (the board's, once it is prepared; until
    /// then the reference ERM at 250 Hz).
    public func renderPreviews(motor: MotorProfile, frameRate: Int) { preview.set(motor: motor, frameRate: frameRate) }

    /// Starts listening; returns the port (useful with port 0). Throws one line when it cannot listen.
    public func start() throws -> UInt16 {
        let failure = Box<Error>(), port = Box<UInt16>()
        let listening = DispatchSemaphore(value: 0)
        let socket = HubSocket(hub: hub, count: sockets, recent: recent)
        let page = GuardedHandler(rules: rules, page: PageFiles(), preview: preview, files: files)
        let rules = self.rules, limits = self.limits, open = self.open
        let server = HTTPServerBuilder { responder in
            GuardedChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    configuration: .init(http1: .init(), ws: .init(maxFrameSize: HubSocket.maxMessageBytes, autoPing: .enabled(timePeriod: .seconds(30)))),
                    shouldUpgrade: { head, channel, _ in
                        if let refusal = GuardedHandler.refusal(upgrade: head, rules: rules.current) {
                            channel.triggerUserOutboundEvent(refusal, promise: nil)
                            return .dontUpgrade
                        }
                        return .upgrade([:]) { inbound, outbound, _ in await socket.serve(inbound, outbound, channel: channel) }
                    }),
                limits: limits, open: open)
        }
        let app = Application(
            responder: page, server: server,
            configuration: .init(address: .hostname(host, port: Int(requestedPort)), serverName: nil, backlog: 256, reuseAddress: true),
            onServerRunning: { channel in
                // Before the backoff SwiftNIO put on the listening socket: accept out of descriptors is said once.
                try? await channel.eventLoop.submit { try channel.pipeline.syncOperations.addHandler(AcceptLog(), position: .first) }.get()
                port.value = UInt16(channel.localAddress?.port ?? 0)
                listening.signal()
            },
            logger: Logger(label: "motorbreath.serve") { _ in SwiftLogNoOpLogHandler() })
        let ended = self.ended
        runTask = Task.detached {
            do { try await app.runService(gracefulShutdownSignals: []) } catch { failure.value = error }
            listening.signal()
            ended.signal()
        }
        _ = listening.wait(timeout: .now() + 5)
        guard let listeningOn = port.value else {
            let why: String
            switch failure.value {
            case let error as IOError where error.errnoCode == EADDRINUSE:
                why = "port \(requestedPort) is in use (another motorbreath serve? --http-port 0 picks a free one)"
            case let error as IOError where error.errnoCode == EACCES:
                why = "\(error) (ports below 1024 need root; pick --http-port 8780)"
            case let error?: why = "\(error)"
            case nil: why = "it did not start within 5 s"
            }
            throw ControlError("cannot listen on \(host): \(why)")
        }
        rules.set(WebGuard(token: token, port: listeningOn))
        return listeningOn
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
        guard let task = runTask else { return }
        task.cancel()
        _ = ended.wait(timeout: .now() + 1)
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
