// An in-process byte pipe pair (host end, board end) with blocking reads that time out.
// SPDX-License-Identifier: Apache-2.0

import Glibc

/// One direction of an in-memory link: a byte queue with a condition variable.
final class ByteQueue: @unchecked Sendable {
    private var bytes: [UInt8] = []
    private var head = 0
    private var closed = false
    private var woken = false
    private let condition = TimedCondition()

    func push(_ data: [UInt8]) -> Bool {
        condition.withLock {
            guard !closed else { return false }
            bytes.append(contentsOf: data)
            condition.broadcast()
            return true
        }
    }

    /// Waits up to `timeoutMs` for bytes; nil once closed and drained.
    func pop(max: Int, timeoutMs: Int) -> [UInt8]? {
        condition.withLock {
            if head == bytes.count && !closed && timeoutMs > 0 {
                let deadline = MonotonicClock.nowNs() + UInt64(timeoutMs) * 1_000_000
                while head == bytes.count && !closed && !woken {
                    if !condition.wait(untilNs: deadline) { break }
                }
            }
            woken = false
            if head == bytes.count { return closed ? nil : [] }
            let end = min(bytes.count, head + max)
            let out = Array(bytes[head..<end])
            head = end
            if head > 4096 && head * 2 > bytes.count {
                bytes.removeFirst(head)
                head = 0
            }
            return out
        }
    }

    /// A waiting pop returns now.
    func wake() {
        condition.withLock {
            woken = true
            condition.broadcast()
        }
    }

    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }
}

/// One end of an in-memory link. Closing either end disconnects both.
public final class InMemoryLink: ByteLink, @unchecked Sendable {
    public let name: String
    private let inbound: ByteQueue
    private let outbound: ByteQueue

    private init(name: String, inbound: ByteQueue, outbound: ByteQueue) {
        self.name = name
        self.inbound = inbound
        self.outbound = outbound
    }

    /// A connected pair: what one end writes, the other reads.
    public static func pair() -> (host: InMemoryLink, board: InMemoryLink) {
        let toBoard = ByteQueue()
        let toHost = ByteQueue()
        return (InMemoryLink(name: "in-memory", inbound: toHost, outbound: toBoard),
                InMemoryLink(name: "in-memory board end", inbound: toBoard, outbound: toHost))
    }

    public func write(_ bytes: [UInt8], timeoutMs: Int) throws(LinkError) {
        guard outbound.push(bytes) else { throw .disconnected(path: name) }
    }

    public func read(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8] {
        guard let bytes = inbound.pop(max: maxBytes, timeoutMs: timeoutMs) else { throw .disconnected(path: name) }
        return bytes
    }

    public func close() {
        inbound.close()
        outbound.close()
    }

    public func wake() { inbound.wake() }
}
