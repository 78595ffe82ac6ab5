// USART1 (PA9 TX, PA10 RX, AF7) at 8N1: the receive and transmit interrupts move bytes between the
// data register and two rings; the main loop never waits on the UART. QEMU 7.2 raises no transmit
// interrupt, so the main loop also tops up the data register whenever it is empty (`pump`).
// Receiving is interrupt-driven, not DMA: QEMU 7.2 does not model the F4's DMA controllers (DMA1/DMA2
// are unimplemented regions there), so a DMA receive path could never run in the emulated-board tests.
// Instead interrupts are masked only for a few dozen instructions (MainLoop.swift `sleepUnlessPending`,
// `pump`), which the cycle bench bounds; bytes lost anyway are counted and reported in STATUS.
// SPDX-License-Identifier: Apache-2.0

import Synchronization

nonisolated(unsafe) var rxRing = ByteRing()
nonisolated(unsafe) var txRing = ByteRing()
/// Bytes lost because the receive ring was full, or the UART overran (a byte came before the last was
/// read). Written only by the receive interrupt; the main loop hands it to BoardCore (`rxLostBytes`),
/// which reports it in STATUS to a host of revision 1.3 or later.
nonisolated(unsafe) var rxDropped: UInt32 = 0
/// Frame delimiters (0x00) received, a wrapping count: the main loop sleeps until one arrives.
let rxDelimiters = Atomic<UInt32>(0)

enum Usart1 {
    static let irq: UInt32 = 37

    static func start(baud: UInt32) {
        RCC.enable(RCC.ahb1enr, 1 << 0)  // GPIOA
        RCC.enable(RCC.apb2enr, 1 << 4)  // USART1
        GPIO.a.alternate(pin: 9, af: 7)
        // Pull-up on RX: with the adapter unplugged a floating input would read noise as bytes; an
        // idle UART line is high.
        GPIO.a.alternate(pin: 10, af: 7, pullUp: true)
        // Oversampling by 16: BRR = f_pclk2 / baud, rounded (mantissa and 4-bit fraction in one number).
        USART1Regs.brr.store((Board.pclk2Hz + baud / 2) / baud)
        USART1Regs.cr2.store(0)
        USART1Regs.cr3.store(0)
        USART1Regs.cr1.store(USART1Regs.cr1UE | USART1Regs.cr1TE | USART1Regs.cr1RE | USART1Regs.cr1RXNEIE)
        NVIC.enable(irq: irq)
    }

    /// Queues bytes for sending; the caller checks `txRing.space` first.
    static func send(_ byte: UInt8) {
        _ = txRing.push(byte)
    }

    /// Starts the transmit interrupt after queueing, and sends what the data register takes now.
    static func kick() {
        pump()
        if !txRing.isEmpty && USART1Regs.cr1.load() & USART1Regs.cr1TXEIE == 0 { USART1Regs.cr1.set(USART1Regs.cr1TXEIE) }
    }

    /// Moves bytes from the ring to the data register while it is empty. Interrupts are masked meanwhile,
    /// so the ring keeps one consumer at a time.
    static func pump() {
        irqDisable()
        while USART1Regs.sr.load() & USART1Regs.srTXE != 0, let byte = txRing.pop() {
            USART1Regs.dr.store(UInt32(byte))
        }
        // Register writes cost an emulator exit each: touch CR1 only when the interrupt must go off.
        if txRing.isEmpty && USART1Regs.cr1.load() & USART1Regs.cr1TXEIE != 0 { USART1Regs.cr1.clear(USART1Regs.cr1TXEIE) }
        irqEnable()
    }
}

@_cdecl("USART1_IRQHandler")
func usart1Handler() {
    var sr = USART1Regs.sr.load()
    if sr & USART1Regs.srRXNE != 0 {
        let byte = UInt8(truncatingIfNeeded: USART1Regs.dr.load())  // reading DR clears RXNE (and ORE)
        #if INJECT_OVERRUN
        let lose = InjectedOverrun.next(&sr)
        #else
        let lose = false
        #endif
        if !lose {
            if sr & USART1Regs.srORE != 0 { rxDropped &+= 1 }  // a byte was lost before this one
            if !rxRing.push(byte) { rxDropped &+= 1 }
            if byte == 0 { rxDelimiters.wrappingAdd(1, ordering: .releasing) }
        }
    } else if sr & USART1Regs.srORE != 0 {
        // Overrun flagged after the previous pass read SR: that pass took the byte in DR (RXNE is clear
        // now) and the byte behind it was lost. DR still holds the byte already taken, so it is read
        // only to clear ORE (SR read, then DR read), never pushed again.
        _ = USART1Regs.dr.load()
        rxDropped &+= 1
    }
    if sr & USART1Regs.srTXE != 0 && USART1Regs.cr1.load() & USART1Regs.cr1TXEIE != 0 {
        if let byte = txRing.pop() {
            USART1Regs.dr.store(UInt32(byte))
        } else {
            USART1Regs.cr1.clear(USART1Regs.cr1TXEIE)
        }
    }
}
