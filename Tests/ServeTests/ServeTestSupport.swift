// What the in-process server tests share: a server started off Swift's concurrency threads (its init,
// start and stop wait for its tasks, as serve calls them from plain threads), and a counter.
// SPDX-License-Identifier: Apache-2.0

import BreathWeb
import Foundation
import MotorControl

/// Runs `work` on a thread of its own and waits for it without holding a concurrency thread: on a 2-core
/// machine there are two, and another suite's blocking test may hold one.
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { done in
        Thread { done.resume(with: Result { try work() }) }.start()
    }
}

/// A page server for `hub` on 127.0.0.1 and a free port, started on a plain thread.
func startServer(_ hub: ControlHub) async throws -> (BreathWebServer, UInt16) {
    try await onThread { () throws -> (BreathWebServer, UInt16) in
        let server = try BreathWebServer(hub: hub, host: "127.0.0.1", port: 0, token: nil)
        return (server, try server.start())
    }
}

/// Counts calls from the server's tasks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
