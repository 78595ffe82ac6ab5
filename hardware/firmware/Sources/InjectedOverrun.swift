// Test build only (build.sh --inject-overrun): a USART overrun injected into the receive interrupt, since
// QEMU's USART never overruns. The overrun is what silicon does: one byte is overwritten in the shift
// register and never seen, and ORE is set with the byte after it, which the interrupt's own ORE path
// then counts (Usart.swift). The emulated-board tests check the count arrives in STATUS.
// SPDX-License-Identifier: Apache-2.0

#if INJECT_OVERRUN
enum InjectedOverrun {
    /// The received byte (counted from 1 after boot) that is lost.
    static let lostByte: UInt32 = 100
    nonisolated(unsafe) static var received: UInt32 = 0

    /// Called for each received byte with the status register as read: true when this byte is the one
    /// lost (the caller drops it); on the next byte, sets ORE in `sr`.
    static func next(_ sr: inout UInt32) -> Bool {
        received &+= 1
        if received == lostByte + 1 { sr |= USART1Regs.srORE }
        return received == lostByte
    }
}
#endif
