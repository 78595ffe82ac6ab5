// One pass of the firmware's main loop and its next wake, shared by the firmware (Main.swift) and the
// cycle bench (Bench/CycleBench.swift), so the bench times the code the board runs.

import Synchronization

#if canImport(MotorWire)
import MotorWire
#endif
#if canImport(BoardCore)
import BoardCore
#endif

/// A reply on its way into the transmit ring: a message goes out whole or waits, so the ring never
/// holds half a frame.
struct Outgoing {
    var wire = FixedBytes()
    var pending = false
}

/// One pass of the loop: received bytes into the core, the work due by now, replies into the transmit
/// ring. Out of line, so the cycle bench times exactly this code.
@inline(never)
func loopPass(_ core: inout BoardCore<FirmwarePort>, _ out: inout Outgoing, now: () -> UInt64) {
    while let byte = rxRing.pop() { core.receive(byte, now: now()) }
    Usart1.pump()
    core.service(now: now())
    while true {
        if !out.pending {
            guard core.nextOutgoing(into: &out.wire) else { break }
            out.pending = true
        }
        guard txRing.space >= UInt32(out.wire.count) else { break }
        for i in 0..<out.wire.count { Usart1.send(out.wire[i]) }
        Usart1.kick()
        out.pending = false
    }
}

/// When the loop must run next: BoardCore's next work, or 100 µs on while bytes wait to be sent (QEMU's
/// USART raises no transmit interrupt).
@inline(never)
func loopWake(_ core: inout BoardCore<FirmwarePort>, now: UInt64) -> UInt64 {
    let wake = core.nextWake(now: now)
    return txRing.isEmpty ? wake : min(wake, now &+ UInt64(BoardClock.hz / 10_000))
}

/// A whole frame (its delimiter) arrived since the loop last looked, or the receive ring is half full.
@inline(__always)
func receivedFrame(since seen: UInt32) -> Bool {
    rxDelimiters.load(ordering: .acquiring) != seen || rxRing.count >= 512
}
