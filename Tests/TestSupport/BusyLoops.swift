// Load for the tests that prove timing under it: shell busy loops, each a process the kernel schedules like
// any other work, stopped (SIGKILL, reaped) by `stop()` or when the value goes away.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// `count` busy loops (`while :; do :; done` in sh) at `nice` (0: ordinary work), running until `stop()`.
public final class BusyLoops {
    private var loops: [Process] = []

    public init(count: Int, nice: Int = 0) throws {
        for _ in 0..<count {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
            p.arguments = ["-n", String(nice), "/bin/sh", "-c", "while :; do :; done"]
            try p.run()
            loops.append(p)
        }
    }

    /// Kills every loop and waits for it.
    public func stop() {
        for p in loops where p.isRunning { kill(p.processIdentifier, SIGKILL) }
        for p in loops { p.waitUntilExit() }
        loops = []
    }

    deinit { stop() }
}
