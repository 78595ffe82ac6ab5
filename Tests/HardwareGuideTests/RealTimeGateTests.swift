// The real-time tests' gate (TestSupport's RealTimeGate): a test that asks for it exclusively is let in
// before a shared holder that asks after it, so it waits only for the tests already running.
// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing
import TestSupport

/// The order in which holders get a lock file, judged by the kernel's flock (the oracle), not by timing.
@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct RealTimeGateTests {
    /// Whether someone holds `path` exclusively now (a non-blocking try that gives it straight back).
    private func held(_ path: String) -> Bool {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return true
    }

    @Test func anExclusiveAskerGoesBeforeASharedOneThatAskedLater() throws {
        let dir = NSTemporaryDirectory() + "motorbreath-gate-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/gate.lock"
        let order = Order()
        let running = RealTimeGate(path: path)  // a test already running, holding it shared
        let exclusive = Thread {
            let gate = RealTimeGate(exclusive: true, path: path)
            order.append("exclusive")
            gate.release()
        }
        exclusive.start()
        // The exclusive asker is waiting once it holds the turnstile (it waits there for `running`).
        for _ in 0..<10_000 where !held(path + ".turnstile") { usleep(1000) }
        #expect(held(path + ".turnstile"), "the exclusive asker never reached the turnstile")
        let shared = Thread {
            let gate = RealTimeGate(path: path)
            order.append("shared")
            gate.release()
        }
        shared.start()
        usleep(50_000)  // the late shared asker has had its chance to slip in (it must not)
        #expect(order.names.isEmpty, "someone got in beside a shared holder and a waiting exclusive one")
        running.release()
        for _ in 0..<10_000 where order.names.count < 2 { usleep(1000) }
        #expect(order.names == ["exclusive", "shared"])
    }
}

/// Who got the gate, in order, from several threads.
private final class Order: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ name: String) { lock.withLock { list.append(name) } }
    var names: [String] { lock.withLock { list } }
}
