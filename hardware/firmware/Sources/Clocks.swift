// Clock setup from whatever clock state the chip is in: after a reset (HSI, no wait states) or after a
// bootloader's jump (DFU `:leave` and `stm32flash -g` jump to the firmware with the bootloader's clocks
// still running: the DFU one runs HSE and the PLL for USB). The order is RM0368/RM0383's (section 3.4,
// "Relation between CPU clock frequency and Flash memory read time"): to lower the clock, switch SYSCLK
// first and lower the wait states after; to raise it, raise the wait states first (read back) and
// switch after. The F4 build ends on the PLL at 84 MHz from the 25 MHz crystal (HSE), or from the HSI
// when the crystal does not start within a bounded wait (`Clocks.crystal` says which; INFO's name ends
// in "-hsi" then). QEMU's RCC is unimplemented and reads 0: the QEMU build never waits on it.
// SPDX-License-Identifier: Apache-2.0

enum Clocks {
    /// SYSCLK runs from the crystal (false: from the HSI RC oscillator, the fallback).
    nonisolated(unsafe) static var crystal = false

    /// Flash ACR: LATENCY (wait states) in bits 3:0, prefetch, instruction and data caches.
    static let acrLatencyMask: UInt32 = 0xF
    static let acrPrefetchAndCaches: UInt32 = 1 << 8 | 1 << 9 | 1 << 10
    /// 84 MHz at 2.7-3.6 V: 2 wait states on the F401 (64-84 MHz) and the F411 (64-90 MHz).
    static let waitStates: UInt32 = 2

    static func setup() {
        #if QEMU
        // QEMU 7.2: RCC reads 0 and ignores writes; the CPU runs at 168 MHz whatever is written.
        Flash.acr.store(acrPrefetchAndCaches)
        #else
        toHSI()
        resetPeripherals()
        crystal = startHSE()
        if !startPLL(crystal: crystal) {
            // A crystal that starts but does not lock the PLL: the PLL from the HSI instead.
            if crystal { RCC.cr.clear(RCC.crHSEON) }
            crystal = false
            // No PLL from either source: trap, and the fault handler holds the motor off and resets.
            guard startPLL(crystal: false) else { fatalError() }
        }
        toPLL()
        #endif
    }

    /// Spins until `done` or `spins` tries have passed; true when done.
    @inline(__always) static func wait(spins: UInt32, _ done: () -> Bool) -> Bool {
        var n: UInt32 = 0
        while !done() {
            n &+= 1
            if n >= spins { return false }
        }
        return true
    }

    /// HSI on and SYSCLK on it (lowering or keeping the clock: switch first), prescalers to 1 after
    /// the switch, the PLL off (it is configured only while off). Wait states stay as they were: more
    /// than 16 MHz needs is always safe.
    static func toHSI() {
        RCC.cr.set(RCC.crHSION)
        _ = wait(spins: 100_000) { RCC.cr.load() & RCC.crHSIRDY != 0 }
        RCC.cfgr.field(0, 2, 0b00)  // SW = HSI
        _ = wait(spins: 100_000) { (RCC.cfgr.load() >> 2) & 0b11 == 0b00 }  // SWS
        RCC.cfgr.store(0)           // AHB, APB1, APB2 undivided (16 MHz is within every limit); MCOs off
        RCC.cr.clear(RCC.crPLLON)
        _ = wait(spins: 100_000) { RCC.cr.load() & RCC.crPLLRDY == 0 }
        RCC.cir.store(0)            // no clock interrupts (a bootloader may have left some enabled)
        // Voltage scale 2 (up to 84 MHz on both parts, their reset value); VOS changes only with the PLL off.
        RCC.enable(RCC.apb1enr, 1 << 28)  // PWR
        PWRRegs.cr.field(14, 2, 0b10)
    }

    /// The peripherals this firmware uses, and USB (the DFU bootloader's), back to their reset state:
    /// a bootloader's jump leaves them as it used them (the USART bootloader runs USART1). GPIO is not
    /// reset: the reset code drives the motor pins low, and a GPIO reset would let them float.
    static func resetPeripherals() {
        let apb1: UInt32 = 1 << 3 | 1 << 17     // TIM5, USART2 (the cycle bench's)
        let apb2: UInt32 = 1 << 0 | 1 << 4      // TIM1, USART1
        let ahb2: UInt32 = 1 << 7               // USB OTG FS
        RCC.apb1rstr.set(apb1); RCC.apb2rstr.set(apb2); RCC.ahb2rstr.set(ahb2)
        RCC.apb1rstr.clear(apb1); RCC.apb2rstr.clear(apb2); RCC.ahb2rstr.clear(ahb2)
        RCC.ahb2enr.clear(ahb2)                 // USB's clock off
    }

    /// The crystal on, with a bounded wait: about 100 ms of spins at 16 MHz (datasheet start-up: 2 ms
    /// typical). False, and HSE off again, when it does not start (no crystal, a broken one).
    static func startHSE() -> Bool {
        RCC.cr.clear(RCC.crHSEON | RCC.crHSEBYP)
        _ = wait(spins: 100_000) { RCC.cr.load() & RCC.crHSERDY == 0 }
        RCC.cr.set(RCC.crHSEON)
        if wait(spins: 400_000, { RCC.cr.load() & RCC.crHSERDY != 0 }) { return true }
        RCC.cr.clear(RCC.crHSEON)
        return false
    }

    /// The PLL at 84 MHz from HSE (25 MHz / 25) or HSI (16 MHz / 16): a 1 MHz VCO input, N = 336 (VCO
    /// 336 MHz), P = 4 (84 MHz SYSCLK), Q = 7 (48 MHz, USB's clock, unused). True when it locked.
    static func startPLL(crystal: Bool) -> Bool {
        let m: UInt32 = crystal ? 25 : 16
        RCC.pllcfgr.store((crystal ? 1 << 22 : 0) | m | 336 << 6 | 0b01 << 16 | 7 << 24)
        RCC.cr.set(RCC.crPLLON)
        if wait(spins: 100_000, { RCC.cr.load() & RCC.crPLLRDY != 0 }) { return true }
        RCC.cr.clear(RCC.crPLLON)
        return false
    }

    /// Raising the clock: wait states first, read back until the flash interface has taken them; APB1
    /// divided by 2 (its limit is 42 MHz on the F401, 50 MHz on the F411) while still at 16 MHz; then
    /// SYSCLK to the PLL, waiting for SWS. The caches are reset on the way (a bootloader may have left
    /// them on with lines of the flash it then rewrote): reset only while they are off.
    static func toPLL() {
        Flash.acr.store(waitStates)  // caches and prefetch off, 2 wait states
        _ = wait(spins: 1000) { Flash.acr.load() & acrLatencyMask == waitStates }
        Flash.acr.store(waitStates | 1 << 11 | 1 << 12)  // ICRST, DCRST
        Flash.acr.store(waitStates | acrPrefetchAndCaches)
        RCC.cfgr.store(0b100 << 10)  // PPRE1 = /2: APB1 42 MHz (its timers, TIM5, run at 84 MHz)
        RCC.cfgr.field(0, 2, 0b10)   // SW = PLL
        guard wait(spins: 100_000, { (RCC.cfgr.load() >> 2) & 0b11 == 0b10 }) else { fatalError() }
    }
}
