// The independent watchdog: if the main loop stops coming round (a hang, a livelock, an interrupt
// storm), the IWDG resets the chip, and the reset path turns the motor off (Startup/startup.c). The
// failsafe covers a silent host and the fault handler a crash; this covers a hang.
// SPDX-License-Identifier: Apache-2.0

enum Watchdog {
    /// IWDG ticks at LSI / 32: about 1 ms (LSI is 32 kHz nominal, 17-47 kHz over parts and
    /// temperature, so 250 counts last 170-470 ms). The loop refreshes it at least every 50 ms.
    static let prescaler: UInt32 = 3      // /32
    static let reload: UInt32 = 250

    /// Starts the watchdog. It cannot be stopped again until the next reset. QEMU 7.2 does not model
    /// the IWDG (its registers read as 0 and writes go nowhere), so there this only leaves the key
    /// writes in the trace.
    static func start() {
        DBGMCURegs.apb1fz.set(1 << 12)  // hold the watchdog while a debugger halts the core
        IWDGRegs.kr.store(0xCCCC)        // start (also starts the LSI)
        IWDGRegs.kr.store(0x5555)        // unlock PR and RLR
        IWDGRegs.pr.store(prescaler)
        IWDGRegs.rlr.store(reload)
        // The new values cross into the LSI domain; the status bits clear when they have. Bounded wait
        // (a few LSI periods; QEMU reads 0 at once) so a dead LSI cannot hang the boot.
        var spins: UInt32 = 0
        while IWDGRegs.sr.load() & 0b11 != 0 && spins < 100_000 { spins &+= 1 }
        refresh()
    }

    /// Reloads the counter: call once per main-loop pass.
    @inline(__always) static func refresh() {
        IWDGRegs.kr.store(0xAAAA)
    }

    /// True when the last reset was the watchdog's (RCC_CSR IWDGRSTF); clears the reset flags.
    static func causedLastReset() -> Bool {
        let watchdog = RCC.csr.load() & (1 << 29) != 0
        RCC.csr.set(1 << 24)  // RMVF: clear the reset flags for next time
        return watchdog
    }
}
