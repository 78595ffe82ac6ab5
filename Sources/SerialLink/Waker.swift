// Wakes a thread waiting in poll() on a link: a self-pipe that is polled next to the port.
// SPDX-License-Identifier: Apache-2.0

import Glibc

/// A nonblocking pipe. `wake()` makes the pipe readable; a reader polling `fd` returns at once.
final class Waker: @unchecked Sendable {
    private var fds: [Int32] = [-1, -1]

    init() {
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
    }

    deinit { for fd in fds where fd >= 0 { Glibc.close(fd) } }

    /// The end to poll for POLLIN.
    var fd: Int32 { fds[0] }

    func wake() {
        var one: UInt8 = 1
        _ = Glibc.write(fds[1], &one, 1)
    }

    /// Empties the pipe after a wake was seen.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while Glibc.read(fds[0], &buffer, 64) > 0 {}
    }

    /// Waits up to `timeoutMs` for `wake()` alone; true when woken (the pipe is then emptied).
    func wait(timeoutMs: Int) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&p, 1, Int32(timeoutMs)) > 0 else { return false }  // timeout, or EINTR
        drain()
        return true
    }

    /// Polls `fd` for `events` and the waker; returns the port's revents, 0 on timeout, -1 when woken.
    func poll(_ fd: Int32, events: Int16, timeoutMs: Int) -> Int16 {
        // On the stack, not an array: this runs at every wake-up.
        let (r, port, waker) = withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { set in
            set[0] = pollfd(fd: fd, events: events, revents: 0)
            set[1] = pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)
            let r = Glibc.poll(set.baseAddress!, 2, Int32(timeoutMs))
            return (r, set[0].revents, set[1].revents)
        }
        if r <= 0 { return 0 }  // timeout, or EINTR: the caller loops and checks for shutdown
        if waker != 0 {
            drain()
            return -1
        }
        return port
    }
}
