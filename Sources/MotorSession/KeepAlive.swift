// A thread of its own that keeps the board's failsafe fed while the session's loop is busy or stalled
// (rendering, a blocked terminal write, a loaded machine), so the failsafe only fires when the host is
// really gone. It sends nothing while the loop's own traffic (frames, clock requests) keeps flowing.

import Glibc
import SerialLink

/// Sends a HEARTBEAT whenever the channel has been quiet for `idleMs`, checking every `checkMs`.
final class KeepAlive: @unchecked Sendable {
    private let channel: BoardChannel
    private let idleNs: UInt64
    private let checkNs: UInt64
    private let lock = Mutex()
    private var running = true
    private var thread: pthread_t?

    init(channel: BoardChannel, idleMs: Int, checkMs: Int = 20) {
        self.channel = channel
        idleNs = UInt64(idleMs) * 1_000_000
        checkNs = UInt64(checkMs) * 1_000_000
        let box = Unmanaged.passRetained(self)
        var t = pthread_t()
        pthread_create(&t, nil, { arg in
            let me = Unmanaged<KeepAlive>.fromOpaque(arg!).takeRetainedValue()
            me.run()
            return nil
        }, box.toOpaque())
        thread = t
    }

    private func run() {
        while lock.withLock({ running }) {
            sleepNs(checkNs)
            if lock.withLock({ running }) { channel.keepAlive(idleNs: idleNs) }
        }
    }

    /// Stops the thread and waits for it (no HEARTBEAT is sent after this returns).
    func stop() {
        lock.withLock { running = false }
        if let t = thread {
            pthread_join(t, nil)
            thread = nil
        }
    }

    deinit { stop() }
}
