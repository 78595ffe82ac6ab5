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
/// a `dropped` event in their place, as on the control socket), and the protocol's own replies (pong,
/// close), which go first. The WebSocket's writer takes one when the socket has taken the last, so a page
/// that stops reading leaves its events here, where they are dropped, not in a buffer without a bound.
final class PageQueue: @unchecked Sendable {
    /// What the writer sends next.
    enum Outgoing { case line(String), frame(WSFrame) }
    private let lock = NSLock()
    private var queue = EventQueue()
    private var replies: [WSFrame] = []
    private var closed = false
    private var waiter: CheckedContinuation<Void, Never>?

    func send(_ line: String) { wakingWriter(whileOpen: true) { queue.append(line) } }

    /// A protocol reply (pong, close), sent before any waiting event.
    func reply(_ frame: WSFrame) { wakingWriter(whileOpen: true) { replies.append(frame) } }

    func close() { wakingWriter(whileOpen: false) { closed = true } }

    /// Makes `change` under the lock (`whileOpen`: only if not closed, else nothing happens), then wakes the
    /// writer if it waits (outside the lock).
    private func wakingWriter(whileOpen: Bool, _ change: () -> Void) {
        let w: CheckedContinuation<Void, Never>? = lock.withLock {
            if whileOpen && closed { return nil }
            change()
            defer { waiter = nil }
            return waiter
        }
        w?.resume()
    }

    /// The next reply or line (nil once closed and empty); waits while there is none.
    func next() async -> Outgoing? {
        while true {
            enum Step { case out(Outgoing), end, wait }
            let step: Step = lock.withLock {
                if !replies.isEmpty { return .out(.frame(replies.removeFirst())) }
                if closed { return .end }  // the page went: its events are for no one
                if let line = queue.next() { return .out(.line(line)) }
                return .wait
            }
            switch step {
            case .out(let out): return out
            case .end: return nil
            case .wait:
                await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                    let ready = lock.withLock {
                        if !queue.isEmpty || !replies.isEmpty || closed { return true }
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
/// is a command line. Speaks the WebSocket protocol itself (pings, close, fragments) so that its frames are
/// pulled by the socket's writer one at a time: FlyingFox's message handler drains the events into a
/// buffer without a bound, and a page that stopped reading would grow it for as long as it stayed open.
struct HubSocket: WSHandler {
    let hub: ControlHub
    let count: SocketCount
    let recent: RecentPhases
    /// A text message in (several frames) is at most this long; longer ones are answered as too long.
    static let maxMessageBytes = 1 << 20

    func makeFrames(for client: AsyncThrowingStream<WSFrame, any Error>) async throws -> AsyncStream<WSFrame> {
        let queue = PageQueue()
        let sink = hub.addSink { queue.send($0) }
        if let hello = hub.greeting {
            queue.send(hello)
            queue.send(hub.stateLine())
            recent.last.forEach(queue.send)
        }
        count.opened()
        let hub = self.hub, count = self.count
        Task {
            var message: Data?  // a text message arriving in fragments
            do {
                loop: for try await frame in client {
                    switch frame.opcode {
                    case .text:
                        message = frame.payload
                    case .continuation where message != nil:
                        message!.append(frame.payload)
                    case .ping:
                        queue.reply(WSFrame(fin: true, opcode: .pong, mask: nil, payload: frame.payload))
                        continue loop
                    case .close:
                        queue.reply(WSFrame(fin: true, opcode: .close, mask: nil, payload: frame.payload.prefix(2)))
                        break loop
                    default:
                        message = nil  // binary, a stray continuation, pong: nothing for the hub
                        continue loop
                    }
                    if (message?.count ?? 0) > Self.maxMessageBytes {
                        queue.send(ErrorEvent(message: LineReader.tooLongMessage).line)
                        message = nil
                    }
                    guard frame.fin, let whole = message else { continue }
                    message = nil
                    for line in String(decoding: whole, as: UTF8.self).split(whereSeparator: \.isNewline) where !line.isEmpty {
                        if line.utf8.count > LineReader.limit {
                            queue.send(ErrorEvent(message: LineReader.tooLongMessage).line)
                            continue
                        }
                        if let reply = hub.handle(line: String(line)) { queue.send(reply) }
                    }
                }
            } catch {}  // a broken frame or a dropped connection: the page is gone
            hub.removeSink(sink)
            queue.close()
            count.closed()
        }
        return AsyncStream<WSFrame>(unfolding: {
            switch await queue.next() {
            case .line(let line)?: WSFrame(fin: true, opcode: .text, mask: nil, payload: Data(HubSocket.trimmed(line).utf8))
            case .frame(let frame)?: frame
            case nil: nil
            }
        })
    }

    /// An event line without its newline (a WebSocket message is already one line).
    static func trimmed(_ line: String) -> String {
        line.hasSuffix("\n") ? String(line.dropLast()) : line
    }
}
