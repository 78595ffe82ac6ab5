// The page's WebSocket: the control protocol of docs/control.md, one JSON object per text message each
// way, served by the same ControlHub as `--control-socket` (every command goes through the same checks).
// SPDX-License-Identifier: Apache-2.0

import FlyingFox
import Foundation
import MotorControl

/// Counts the open WebSockets and says when the last one closed (for `--stop-when-closed`).
final class SocketCount: @unchecked Sendable {
    private let lock = NSLock()
    private var open = 0
    var onLastClosed: (@Sendable () -> Void)?

    func opened() { lock.withLock { open += 1 } }

    func closed() {
        let last = lock.withLock { open -= 1; return open == 0 }
        if last { onLastClosed?() }
    }

    var count: Int { lock.withLock { open } }
}

/// A page's outgoing events: MotorControl's EventQueue (at most 1000 lines, the oldest dropped first and
/// a `dropped` event in their place, as on the control socket), read by the WebSocket's writer.
final class PageQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var queue = EventQueue()
    private var closed = false
    private var waiter: CheckedContinuation<Void, Never>?

    func send(_ line: String) {
        let w: CheckedContinuation<Void, Never>? = lock.withLock {
            if closed { return nil }
            queue.append(line)
            defer { waiter = nil }
            return waiter
        }
        w?.resume()
    }

    func close() {
        let w: CheckedContinuation<Void, Never>? = lock.withLock {
            closed = true
            defer { waiter = nil }
            return waiter
        }
        w?.resume()
    }

    /// The next line (nil once closed and empty); waits while there is none.
    func next() async -> String? {
        while true {
            enum Step { case line(String), end, wait }
            let step: Step = lock.withLock {
                if let line = queue.next() { return .line(line) }
                return closed ? .end : .wait
            }
            switch step {
            case .line(let line): return line
            case .end: return nil
            case .wait:
                await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                    let ready = lock.withLock {
                        if !queue.isEmpty || closed { return true }
                        waiter = c
                        return false
                    }
                    if ready { c.resume() }
                }
            }
        }
    }
}

/// The last two `phase` events, for a page that opens mid-phase: with them it draws the breath at once
/// instead of waiting for the next phase to begin (up to a whole phase), and knows the board's period.
/// While an AHAP file plays, its `file` event instead; a new session (`prepared`) forgets them.
final class RecentPhases: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func note(_ line: String) {
        if line.contains(#""event":"phase""#) {
            lock.withLock { lines = Array((lines + [line]).suffix(2)) }
        } else if line.contains(#""event":"file""#) && line.contains(#""state":"playing""#) {
            lock.withLock { lines = [line] }  // a file plays: no breath phase is playing
        } else if line.contains(#""event":"prepared""#) || line.contains(#""event":"file""#) {
            lock.withLock { lines = [] }  // a new session: the old phases are not its
        }
    }

    var last: [String] { lock.withLock { lines } }
}

/// One WebSocket client of the hub: the greeting and the state first (as a socket client gets them), then
/// the phase events of the phase playing (and the one before), then every event; each text message in
/// is a command line.
struct HubSocket: WSMessageHandler {
    let hub: ControlHub
    let count: SocketCount
    let recent: RecentPhases

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let queue = PageQueue()
        let out = AsyncStream<WSMessage>(unfolding: { await queue.next().map { .text(HubSocket.trimmed($0)) } })
        let send = queue
        let sink = hub.addSink { queue.send($0) }
        if let hello = hub.greeting {
            queue.send(hello)
            queue.send(hub.stateLine())
            recent.last.forEach(queue.send)
        }
        count.opened()
        let hub = self.hub, count = self.count
        Task {
            for await message in client {
                guard case .text(let text) = message else { continue }
                for line in text.split(whereSeparator: \.isNewline) where !line.isEmpty {
                    if line.utf8.count > LineReader.limit {
                        send.send(ControlEvents.line(["event": "error", "message": LineReader.tooLongMessage]))
                        continue
                    }
                    if let reply = hub.handle(line: String(line)) { send.send(reply) }
                }
            }
            hub.removeSink(sink)
            send.close()
            count.closed()
        }
        return out
    }

    /// An event line without its newline (a WebSocket message is already one line).
    static func trimmed(_ line: String) -> String {
        line.hasSuffix("\n") ? String(line.dropLast()) : line
    }
}
