// The host's two ends of the simulated world: its link (HostEnd, a ByteLink whose reads move the world
// forward) and its clock (WorldClock, the world's time). What the host is told while the cable is out
// or after a livelock lives here too: the errors a real port would give.
// SPDX-License-Identifier: Apache-2.0

import SerialLink

extension SimWorld {
    /// The host's end of the link: writes go on the line now; reads run the world until bytes are due for
    /// the host or the timeout passes. Every ``hostLink`` is one of these on the same world.
    final class HostEnd: FineTimeoutLink, @unchecked Sendable {
        let world: SimWorld
        init(world: SimWorld) { self.world = world }
        var name: String { "simulated board" }
        func write(_ bytes: [UInt8], timeoutMs: Int) throws(LinkError) { try world.hostWrite(bytes) }
        func read(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8] {
            try world.hostRead(maxBytes: maxBytes, timeoutNs: UInt64(max(0, timeoutMs)) * 1_000_000)
        }
        func readFine(maxBytes: Int, timeoutNs: UInt64) throws(LinkError) -> [UInt8] {
            try world.hostRead(maxBytes: maxBytes, timeoutNs: timeoutNs)
        }
        func close() {}
    }

    /// The host's clock: the world's time (in real time, never behind the wall).
    struct WorldClock: HostClock {
        let world: SimWorld
        func nowNs() -> UInt64 { world.hostNow().ns }
    }

    /// A host write: refused when livelocked or unplugged; in real time the world first catches up with
    /// the wall; `hostWriteFilter` may lose it.
    func hostWrite(_ bytes: [UInt8]) throws(LinkError) {
        try mutex.withLock { () throws(LinkError) in
            if scheduler.livelocked { throw scheduler.livelockError }
            if host.unplugged { throw LinkError.disconnected(path: "simulated board") }
            if pacing == .realTime { runLocked(until: max(scheduler.now, scheduler.realNow()), stopOnHostData: false) }
            if let filter = hostWriteFilter, !filter(scheduler.now.ns, bytes) { return }
            sendFromHost(bytes)
        }
    }

    /// A host read: while the cable is out, the world runs to its return (or the timeout) and the read
    /// fails as a disconnect; otherwise it runs until bytes are due or the timeout passes, and returns
    /// whole chunks up to `maxBytes` (at least one).
    func hostRead(maxBytes: Int, timeoutNs: UInt64) throws(LinkError) -> [UInt8] {
        try mutex.withLock { () throws(LinkError) in
            if scheduler.livelocked { throw scheduler.livelockError }
            if let back = host.unpluggedUntil, scheduler.now < back {
                runLocked(until: min(back, scheduler.now + timeoutNs), stopOnHostData: false)
                // Unplugged is a reason to reconnect; a livelock during the unplug is not.
                throw scheduler.livelocked ? scheduler.livelockError : LinkError.disconnected(path: "simulated board")
            }
            let start = pacing == .realTime ? max(scheduler.now, scheduler.realNow()) : scheduler.now
            runLocked(until: start + timeoutNs, stopOnHostData: true)
            if scheduler.livelocked { throw scheduler.livelockError }
            let out = line.takeForHost(maxBytes: maxBytes, by: scheduler.now)
            if !out.isEmpty { hostReadObserver?(scheduler.now.ns, out) }
            return out
        }
    }

    func hostNow() -> HostNanos { mutex.withLock { scheduler.hostNow } }
}
