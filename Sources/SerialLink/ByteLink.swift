// The byte-stream interface every link implements (serial port, pty, in-memory), and its errors.
// SPDX-License-Identifier: Apache-2.0

/// A bidirectional byte stream to a board. Reads never block longer than their timeout.
public protocol ByteLink: AnyObject, Sendable {
    /// Human-readable name (the port path, or "in-memory").
    var name: String { get }
    /// Writes all bytes (waiting as needed, at most `timeoutMs` in all).
    func write(_ bytes: [UInt8], timeoutMs: Int) throws(LinkError)
    /// Returns the bytes available, waiting up to `timeoutMs` for the first; [] on timeout.
    func read(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8]
    /// Releases the port. Further calls fail with `.closed`.
    func close()
    /// Makes a read waiting on another thread return [] now (safe from any thread).
    func wake()
}

extension ByteLink {
    public func write(_ bytes: [UInt8]) throws(LinkError) { try write(bytes, timeoutMs: 1000) }
    /// `read(maxBytes:timeoutMs:)` with a timeout in ns, rounded up to whole ms unless the link waits finer
    /// (a simulated link in virtual time does: a host timing its CLOCK requests to the µs needs it there).
    public func read(maxBytes: Int, timeoutNs: UInt64) throws(LinkError) -> [UInt8] {
        if let fine = self as? FineTimeoutLink { return try fine.readFine(maxBytes: maxBytes, timeoutNs: timeoutNs) }
        return try read(maxBytes: maxBytes, timeoutMs: Int((timeoutNs + 999_999) / 1_000_000))
    }
    public func wake() {}
}

extension ByteLink {
    /// Waits up to `timeoutMs` without waking for the bytes that arrive meanwhile (only `wake()` ends the
    /// wait early), then returns the bytes there are, without waiting for any: for a host that needs nothing
    /// from the board until then, so that reports it can read later do not each wake it. A link that cannot
    /// wait so reads as `read(maxBytes:timeoutMs:)` does.
    public func readAfterIdle(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8] {
        if let idle = self as? IdleWaitLink { return try idle.readAfterWaiting(maxBytes: maxBytes, timeoutMs: timeoutMs) }
        return try read(maxBytes: maxBytes, timeoutMs: timeoutMs)
    }
}

/// A link that can wait on its waker alone (`ByteLink.readAfterIdle` uses it).
public protocol IdleWaitLink: ByteLink {
    /// Waits `timeoutMs` or until `wake()`, not for bytes, then returns the bytes available ([] if none).
    func readAfterWaiting(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8]
}

/// A link whose reads can wait to the nanosecond (`ByteLink.read(maxBytes:timeoutNs:)` uses it).
public protocol FineTimeoutLink: ByteLink {
    /// Returns the bytes available, waiting up to `timeoutNs` for the first; [] on timeout.
    func readFine(maxBytes: Int, timeoutNs: UInt64) throws(LinkError) -> [UInt8]
}

/// What went wrong with a link, with the one line a user should read.
public enum LinkError: Error, Sendable, Equatable, CustomStringConvertible {
    case noSuchPort(path: String, available: [String])
    case permissionDenied(path: String)
    case busy(path: String)
    /// Another program has the port open (seen in /proc): it would read the board's replies.
    case openElsewhere(path: String, pid: Int32, program: String)
    case notASerialPort(path: String)
    case driverCannotOpen(path: String, reason: String)
    case disconnected(path: String)
    case unsupportedBaud(path: String, baud: Int)
    case writeTimeout(path: String)
    case closed
    case os(path: String, operation: String, errno: Int32, message: String)
    /// The link can never carry bytes again and reopening it would not help (a simulation whose time stood
    /// still): a session ends with this instead of reconnecting.
    case halted(path: String, reason: String)

    public var description: String {
        switch self {
        case .noSuchPort(let path, let available):
            let list = available.isEmpty ? "no serial ports found" : "ports: " + available.joined(separator: ", ")
            return "no such port \(path) (\(list); try --simulate to run without a board)"
        case .permissionDenied(let path):
            return "permission denied opening \(path): install motorbreath's udev rules (hardware/README.md) or join the port's group (ls -l \(path); usually dialout) and log in again"
        case .busy(let path):
            return "port \(path) is busy: another program (or motorbreath) has it open"
        case .openElsewhere(let path, let pid, let program):
            return "\(path) is open in another program (\(program), pid \(pid)), which would take the board's replies: close it first"
        case .notASerialPort(let path):
            return "\(path) is not a serial port or terminal device"
        case .driverCannotOpen(let path, let reason):
            return "cannot open \(path): \(reason)"
        case .disconnected(let path):
            return "board on \(path) disconnected (unplugged or reset)"
        case .unsupportedBaud(let path, let baud):
            return "\(path) does not support \(baud) baud"
        case .writeTimeout(let path):
            return "writing to \(path) timed out: the board is not reading"
        case .closed:
            return "the link is closed"
        case .os(let path, let operation, let errno, let message):
            return "\(operation) \(path) failed: \(message) (errno \(errno))"
        case .halted(let path, let reason):
            return "\(path) halted: \(reason)"
        }
    }
}
