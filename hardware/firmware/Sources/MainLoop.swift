// One pass of the firmware's main loop and its next wake, shared by the firmware (Main.swift) and the
// cycle bench (Bench/CycleBench.swift), so the bench times the code the board runs.
// SPDX-License-Identifier: Apache-2.0

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
///
/// A message is handled at the tick its last byte (the delimiter) is read, and the work due by that
/// tick runs first, at the same tick. A pass woken late (the loop held up by a long message's pass, or
/// QEMU's CPU thread descheduled on a busy host) finds a carrier edge or a frame overdue and a message
/// waiting: handled first, a FRAMES block's decoding held the output up further, and a STATUS reported
/// the level from before the edge at a tick after it (the LRA carrier clause saw 4 such samples of 36 on
/// a loaded CI machine; with 2 busy loops beside QEMU, 9 runs of 30 failed).
@inline(never)
func loopPass(_ core: inout BoardCore<FirmwarePort>, _ out: inout Outgoing, now: () -> UInt64) {
    while let byte = rxRing.pop() {
        let tick = now()
        if byte == Wire.delimiter { core.service(now: tick) }
        core.receive(byte, now: tick)
    }
    core.rxLostBytes = rxDropped  // one aligned word the receive interrupt writes: read whole
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

/// Nothing the loop must handle has happened since the alarm was armed: the alarm has not fired and
/// no whole frame came. Run with interrupts masked: this, and WFI, is all the firmware masks on its way
/// to sleep (the cycle bench times it as loop.masked).
@inline(__always)
func nothingPending(since seen: UInt32) -> Bool {
    !WakeTimer.fired() && !receivedFrame(since: seen)
}

/// WFI unless the alarm fired or a frame came since the caller last looked. Interrupts are masked
/// only from the check to WFI, so neither can slip in between unseen (WFI wakes on a pending
/// interrupt even while they are masked; it is taken once they are unmasked). An interrupt that came
/// before the mask was handled already: the alarm's leaves SysTick's COUNTFLAG set, a frame's delimiter
/// the count.
@inline(never)
func sleepUnlessPending(since seen: UInt32) {
    irqDisable()
    if nothingPending(since: seen) { wfi() }
    irqEnable()
}
