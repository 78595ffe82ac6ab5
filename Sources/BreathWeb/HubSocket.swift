// The page's WebSocket: the control protocol of docs/control.md, one JSON object per text message each
// way, served by the same ControlHub as `--control-socket` (every command goes through the same checks);
// a binary message closes it with 1003.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HummingbirdWebSocket
import MotorControl
import NIOCore
import NIOWebSocket

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
/// a `dropped` event in their place, as on the control socket). The WebSocket's writer takes one when the
/// socket has taken the last (its writes wait while the connection cannot take more), so a page that stops
/// reading leaves its events here, where they are dropped, not in a buffer without a bound.
final class PageQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var queue = EventQueue()
    private var closed = false
    private var waiter: CheckedContinuation<Void, Never>?

    func send(_ line: String) { wakingWriter(whileOpen: true) { queue.append(line) } }

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

    /// The next line (nil once closed); waits while there is none.
    func next() async -> String? {
        while true {
            enum Step { case out(String), end, wait }
            let step: Step = lock.withLock {
                if closed { return .end }  // the page went: its events are for no one
                if let line = queue.next() { return .out(line) }
                return .wait
            }
            switch step {
            case .out(let line): return line
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
/// is a command line (several lines in one message are several commands). A binary message is refused:
/// the socket is closed with 1003 (unsupported data). Pings, pongs and the close handshake are
/// hummingbird-websocket's; a frame over `maxMessageBytes` is closed by it with 1009 (message too big).
struct HubSocket: Sendable {
    let hub: ControlHub
    let count: SocketCount
    let recent: RecentPhases
    /// A text message in (several frames) is at most this long; longer ones are answered as too long.
    static let maxMessageBytes = 1 << 20
    /// The close reason sent with 1003 for a binary message.
    static let binaryRefused = "the page speaks text: one JSON command a line (docs/control.md)"

    /// Serves one page on its upgraded `channel`. Events are written on the channel itself, each awaited until
    /// the socket took it: the outbound writer's `write` returns as soon as its own buffer holds a frame, so a
    /// burst of events would pile up there without a bound instead of in the page's queue.
    func serve(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, channel: any Channel) async {
        let queue = PageQueue()
        let sink = hub.addSink { queue.send($0) }
        if let hello = hub.greeting {
            queue.send(hello)
            queue.send(hub.stateLine())
            recent.last.forEach(queue.send)
        }
        count.opened()
        let writer = Task {
            while let line = await queue.next() {
                let frame = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: HubSocket.trimmed(line)))
                do { try await channel.writeAndFlush(frame).get() } catch { break }
            }
        }
        var message: ByteBuffer?  // a text message arriving in fragments
        do {
            loop: for try await frame in inbound {
                switch frame.opcode {
                case .text:
                    message = frame.data
                case .continuation where message != nil:
                    var data = frame.data
                    message!.writeBuffer(&data)
                case .binary:
                    try? await outbound.close(.unacceptableData, reason: Self.binaryRefused)
                    break loop
                default:
                    continue loop  // a stray continuation
                }
                if (message?.readableBytes ?? 0) > Self.maxMessageBytes {
                    queue.send(ErrorEvent(message: LineReader.tooLongMessage).line)
                    message = nil
                }
                guard frame.fin, let whole = message else { continue }
                message = nil
                for line in String(buffer: whole).split(whereSeparator: \.isNewline) where !line.isEmpty {
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
        writer.cancel()
    }

    /// An event line without its newline (a WebSocket message is already one line).
    static func trimmed(_ line: String) -> String {
        line.hasSuffix("\n") ? String(line.dropLast()) : line
    }
}
