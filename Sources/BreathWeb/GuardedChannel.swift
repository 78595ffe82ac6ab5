// Every connection Hummingbird accepts for the page, with a ConnectionGuard put first in its pipeline: the
// bounds are held on the raw bytes, before the HTTP parser or the WebSocket upgrade sees any of them.
// SPDX-License-Identifier: Apache-2.0

import HummingbirdCore
import Logging
import NIOCore

/// A child channel (HTTP/1.1 with the WebSocket upgrade, `Base`) whose every connection is held to `limits`
/// by a ``ConnectionGuard`` counting against the shared `open`.
struct GuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let limits: ServerLimits
    let open: OpenConnections

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let limits = self.limits, open = self.open
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ConnectionGuard(limits: limits, open: open), position: .first)
        }.flatMap { base.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
