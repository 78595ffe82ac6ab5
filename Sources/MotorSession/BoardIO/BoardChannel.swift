// The host's end of the wire: sequence numbers, framing, decoding, and waiting for a reply.
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import SerialLink

/// Everything that can end a session early, each with one line for the user.
public enum SessionError: Error, Sendable, CustomStringConvertible {
    case link(LinkError)
    /// The board is still there but lost the stream (its failsafe fired, it restarted): prepare again.
    case boardLost(String)
    case noHello(port: String, ms: Int)
    case incompatible(String)
    case refused(Nak)
    case timeout(String)

    public var description: String {
        switch self {
        case .link(let e): return e.description
        case .boardLost(let why): return why
        case .noHello(let port, let ms):
            return "no motorbreath board answered on \(port) within \(ms) ms (is the firmware flashed and the baud rate right?)"
        case .incompatible(let why): return "incompatible board: \(why)"
        case .refused(let nak): return "board refused \(MessageType(rawValue: nak.refType).map { "\($0)" } ?? "message"): \(nak.code) (detail \(nak.detail))"
        case .timeout(let what): return "timed out waiting for \(what)"
        }
    }
}

/// Sends host messages and collects board messages over one link. Sending is safe from a second thread
/// (the keep-alive); receiving belongs to one thread.
public final class BoardChannel: @unchecked Sendable {
    public var link: ByteLink { writeLock.withLock { currentLink } }
    private var currentLink: ByteLink
    /// The host clock every timing decision reads (virtual in simulations).
    public let clock: HostClock
    private var decoder = FrameDecoder()
    private let writeLock = Mutex(priorityInheritance: true)  // the keep-alive thread may run real-time
    private var seq: UInt8 = 0
    private var pending: [BoardMessage] = []
    public private(set) var bytesSent = 0
    public private(set) var bytesReceived = 0
    private var lastWrite: UInt64 = 0
    private var lastWriteCount = 0
    private var longestGap: UInt64 = 0
    /// The keep-alive's timer, re-armed by every write (nil without a keep-alive thread).
    private var watchdog: Watchdog?
    /// Host time of the last message decoded from the board.
    public private(set) var lastHeardNs: UInt64 = 0
    /// Whether anything valid ever came from the board on this channel (else nothing there is ours to stop).
    public private(set) var heardBoard = false

    public init(link: ByteLink, clock: HostClock = SystemClock()) {
        currentLink = link
        self.clock = clock
    }

    /// Host time of the last write to the board (any message, or a lone delimiter).
    public var lastWriteNs: UInt64 { writeLock.withLock { lastWrite } }

    /// The last write's time and size: whether its bytes can still be on their way ahead of a new one.
    var lastWriteInfo: (ns: UInt64, bytes: Int) { writeLock.withLock { (lastWrite, lastWriteCount) } }

    /// Whether the last `receive` completed exactly one message with the read's last byte and no other
    /// message ended in that read: what completed it shared its USB packet with no other message's bytes.
    private(set) var lastReceiveAlone = false

    /// The longest the host went without writing to the board since the last reset: what the board's
    /// failsafe sees of host stalls.
    public var longestWriteGapNs: UInt64 { writeLock.withLock { longestGap } }

    public func resetWriteGap() {
        writeLock.withLock {
            longestGap = 0
            lastWrite = clock.nowNs()
        }
    }

    /// Closes the link now (before reopening the same port: the old handle holds its lock).
    public func closeLink() { link.close() }

    /// Swaps in a reopened link (after a disconnect); the old one is closed first, and any partial frame
    /// from it is dropped.
    public func replaceLink(_ newLink: ByteLink) {
        writeLock.withLock {
            currentLink.close()
            currentLink = newLink
        }
        decoder.reset()
        pending.removeAll()
    }

    /// Frames the host could not decode, by cause.
    public var rxErrors: DecodeErrorCounts { decoder.errors }

    /// Sends one message; returns the sequence number it carried.
    @discardableResult
    public func send(_ message: HostMessage) throws(SessionError) -> UInt8 {
        try writeLock.withLock { () throws(SessionError) -> UInt8 in try sendLocked(message) }
    }

    private func sendLocked(_ message: HostMessage) throws(SessionError) -> UInt8 {
        var wire = FixedBytes()
        guard message.encode(seq: seq, into: &wire) else { throw .incompatible("message too large to encode") }
        let used = seq
        seq &+= 1
        var bytes = [UInt8]()
        bytes.reserveCapacity(wire.count)
        for i in 0..<wire.count { bytes.append(wire[i]) }
        try writeLocked(bytes)
        return used
    }

    /// Sends a lone delimiter so the board drops any partial frame left from before.
    public func resync() throws(SessionError) {
        try writeLock.withLock { () throws(SessionError) in try writeLocked([Wire.delimiter]) }
    }

    private func writeLocked(_ bytes: [UInt8]) throws(SessionError) {
        do { try currentLink.write(bytes) } catch { throw .link(error) }
        let t = clock.nowNs()
        if lastWrite > 0 && t > lastWrite { longestGap = max(longestGap, t - lastWrite) }
        lastWrite = t
        lastWriteCount = bytes.count
        bytesSent += bytes.count
        watchdog?.kick()
    }

    /// Makes every write re-arm `watchdog` (the keep-alive's), until `detach`.
    func attach(_ watchdog: Watchdog) { writeLock.withLock { self.watchdog = watchdog } }

    /// Stops re-arming `watchdog` (if it is still the one attached).
    func detach(_ watchdog: Watchdog) { writeLock.withLock { if self.watchdog === watchdog { self.watchdog = nil } } }

    /// From the keep-alive thread when the watchdog fired: sends a HEARTBEAT if nothing was written for its
    /// `idleNs` (the write re-arms it); else re-arms it for when that will be, or `retryNs` from now if the
    /// HEARTBEAT could not be written. Under the write lock, so the last arming always follows the last write.
    func keepAlive(retryNs: UInt64) {
        writeLock.withLock {
            guard let watchdog else { return }
            let quiet = clock.nowNs() &- lastWrite
            if quiet < watchdog.idleNs { return watchdog.arm(ns: watchdog.idleNs - quiet) }
            do throws(SessionError) { _ = try sendLocked(.heartbeat) } catch { watchdog.arm(ns: retryNs) }
        }
    }

    /// Reads what arrives within `timeoutMs` (returns early once something decodes).
    public func receive(timeoutMs: Int) throws(SessionError) -> [BoardMessage] {
        try receive { () throws(LinkError) in try link.read(maxBytes: 4096, timeoutMs: timeoutMs) }
    }

    /// Waits up to `timeoutMs` without waking for what the board sends meanwhile (`wake()` ends it early), then
    /// decodes what came (`ByteLink.readAfterIdle`): for a host expecting nothing it must read at once.
    func receiveAfterIdle(timeoutMs: Int) throws(SessionError) -> [BoardMessage] {
        try receive { () throws(LinkError) in try link.readAfterIdle(maxBytes: 4096, timeoutMs: timeoutMs) }
    }

    /// `receive(timeoutMs:)` waiting at most `timeoutNs` (to the nanosecond where the link can:
    /// `ByteLink.read(maxBytes:timeoutNs:)`).
    func receive(timeoutNs: UInt64) throws(SessionError) -> [BoardMessage] {
        try receive { () throws(LinkError) in try link.read(maxBytes: 4096, timeoutNs: timeoutNs) }
    }

    private func receive(_ read: () throws(LinkError) -> [UInt8]) throws(SessionError) -> [BoardMessage] {
        if !pending.isEmpty {
            defer { pending.removeAll() }
            lastReceiveAlone = false
            return pending
        }
        let bytes: [UInt8]
        do { bytes = try read() } catch { throw .link(error) }
        bytesReceived += bytes.count
        var out: [BoardMessage] = []
        var packets = 0, endedLast = false
        for (i, b) in bytes.enumerated() {
            guard case .packet(let p)? = decoder.push(b) else { continue }
            packets += 1
            endedLast = i == bytes.count - 1
            do throws(WireError) { out.append(try BoardMessage(p)) } catch { decoder.countMessageError(error) }
        }
        lastReceiveAlone = packets == 1 && endedLast && out.count == 1
        if !out.isEmpty {
            lastHeardNs = clock.nowNs()
            heardBoard = true
        }
        return out
    }

    /// Waits for the first message `match` accepts; other messages go to `other`.
    public func waitFor<T>(_ what: String, timeoutMs: Int, other: (BoardMessage) -> Void = { _ in },
                           _ match: (BoardMessage) throws(SessionError) -> T?) throws(SessionError) -> T {
        let deadline = clock.nowNs() + UInt64(timeoutMs) * 1_000_000
        while true {
            let now = clock.nowNs()
            guard now < deadline else { throw .timeout(what) }
            let left = Int((deadline - now) / 1_000_000) + 1
            var messages = try receive(timeoutMs: min(left, 50))
            while !messages.isEmpty {
                let m = messages.removeFirst()
                if let found = try match(m) {
                    pending.append(contentsOf: messages)
                    return found
                }
                other(m)
            }
        }
    }
}
