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

/// One WebSocket client of the hub: the greeting and the state first (as a socket client gets them), then
/// every event; each text message in is a command line. At most 1000 events wait for a slow page: the
/// oldest go first, as on the control socket.
struct HubSocket: WSMessageHandler {
    let hub: ControlHub
    let count: SocketCount

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (out, send) = AsyncStream.makeStream(of: WSMessage.self, bufferingPolicy: .bufferingNewest(1000))
        let sink = hub.addSink { send.yield(.text(HubSocket.trimmed($0))) }
        if let hello = hub.greeting {
            send.yield(.text(HubSocket.trimmed(hello)))
            send.yield(.text(HubSocket.trimmed(hub.stateLine())))
        }
        count.opened()
        let hub = self.hub, count = self.count
        Task {
            for await message in client {
                guard case .text(let text) = message else { continue }
                for line in text.split(whereSeparator: \.isNewline) where !line.isEmpty {
                    if line.utf8.count > 65_536 {
                        send.yield(.text(HubSocket.trimmed(ControlEvents.line(["event": "error", "message": "line too long: a command line is at most 65536 bytes (64 KiB); this one was discarded"]))))
                        continue
                    }
                    if let reply = hub.handle(line: String(line)) { send.yield(.text(HubSocket.trimmed(reply))) }
                }
            }
            hub.removeSink(sink)
            send.finish()
            count.closed()
        }
        return out
    }

    /// An event line without its newline (a WebSocket message is already one line).
    static func trimmed(_ line: String) -> String {
        line.hasSuffix("\n") ? String(line.dropLast()) : line
    }
}
