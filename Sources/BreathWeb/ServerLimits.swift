// The bounds `motorbreath serve` holds every connection to (docs/web.md, "Limits"), and the count of
// connections open now that the cap is checked against.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// What one connection may cost the page's server: how many may be open, how long and how big a request's
/// head and body may be, how long a connection may sit idle. A phone on the LAN never comes near them; a
/// client that holds connections open, sends a byte a second or a body without end is cut off at them.
public struct ServerLimits: Sendable {
    /// Connections open at once (pages, their WebSockets, requests); one more is answered 503 and closed.
    public var maxConnections = 256
    /// A request line and its headers, up to the blank line, at most this many bytes (then 431).
    public var maxHeadBytes = 8192
    /// A request's head is read within this many seconds of its first byte (then 408).
    public var headSeconds = 10.0
    /// A request's body is read within this many seconds of its head (then 408).
    public var bodySeconds = 30.0
    /// A connection with nothing read or written for this long, between requests, is closed.
    public var idleSeconds = 15.0
    /// A request's body is at most this many bytes, whatever its encoding (then 413).
    public var maxBodyBytes = PatternPreview.maxUploadBytes
    /// A refused request's connection stays open this long after its answer, so that the client reads it
    /// before the close (a close with unread bytes would reset the connection and lose the answer).
    public var lingerSeconds = 1.0

    public init() {}

    /// The defaults with another connection cap (`serve --max-connections`).
    public init(maxConnections: Int) { self.maxConnections = maxConnections }
}

/// The connections open now, shared by every connection's guard.
final class OpenConnections: @unchecked Sendable {
    private let lock = NSLock()
    private var open = 0

    /// Counts one more unless `limit` are open: false when it is refused.
    func enter(limit: Int) -> Bool {
        lock.withLock {
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    func leave() { lock.withLock { open -= 1 } }

    var count: Int { lock.withLock { open } }
}
