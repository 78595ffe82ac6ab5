// A client's outgoing events: a bounded queue of whole JSON lines. The session only ever appends (it
// never waits for a client); when a client reads too slowly the oldest lines go first, and the next
// line it gets is a `dropped` event saying how many it missed.
// SPDX-License-Identifier: Apache-2.0

import Glibc
import HostPlatform

/// Whole event lines waiting for one client, oldest dropped first when full.
public struct EventQueue: Sendable {
    /// At most this many lines wait (about a minute of a busy session's events).
    public static let capacity = 1000
    private var lines: [String] = []
    private var head = 0
    /// Lines dropped since the client last got one.
    private(set) var dropped = 0

    public init() {}

    public var isEmpty: Bool { head == lines.count && dropped == 0 }

    public mutating func append(_ line: String) {
        lines.append(line)
        if lines.count - head > EventQueue.capacity {
            head += 1
            dropped += 1
        }
        if head > 4096 {
            lines.removeFirst(head)
            head = 0
        }
    }

    /// The next line to write: a `dropped` event first if lines were dropped, then the oldest line.
    public mutating func next() -> String? {
        if dropped > 0 {
            defer { dropped = 0 }
            return EventQueue.droppedLine(dropped)
        }
        guard head < lines.count else { return nil }
        defer { head += 1 }
        return lines[head]
    }

    static func droppedLine(_ count: Int) -> String {
        DroppedEvent(count: count).line
    }
}

/// Standard output for `--control -`: a thread of its own writes the queue, so a reader that stops
/// reading stalls only that thread, never the session.
public final class StdoutEvents: @unchecked Sendable {
    private let condition = TimedCondition()
    private var queue = EventQueue()
    private var writing = false

    public init() {
        pthread_detach(startThread { self.run() })
    }

    public func send(_ line: String) {
        condition.withLock {
            queue.append(line)
            condition.broadcast()
        }
    }

    /// Waits up to `seconds` for every queued line to be written (the last event, `finished`, included).
    public func flush(seconds: Double) {
        let deadline = MonotonicClock.nowNs() + UInt64(seconds * 1e9)
        condition.withLock {
            while !queue.isEmpty || writing {
                if !condition.wait(untilNs: deadline) { return }
            }
        }
    }

    private func run() {
        while true {
            let line: String = condition.withLock {
                while true {
                    if let l = queue.next() {
                        writing = true
                        return l
                    }
                    writing = false
                    condition.broadcast()
                    _ = condition.wait(untilNs: MonotonicClock.nowNs() + 1_000_000_000)
                }
            }
            var bytes = Array(line.utf8)[...]
            while !bytes.isEmpty {
                let n = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    break  // the reader is gone: nothing more to do for it
                }
                bytes = bytes.dropFirst(n)
            }
        }
    }
}
