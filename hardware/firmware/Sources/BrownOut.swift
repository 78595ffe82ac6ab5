// Brown-out reset level, an option byte. From the factory the F401/F411 brown-out reset is off (only
// the ~1.7 V power-on/power-down reset acts), so a sagging supply can run the CPU and flash out of
// spec. The firmware can program the level itself (FLASH_OPTCR, RM0368/RM0383 "Option bytes"); it
// writes it once, when it differs, and keeps every other option bit (read protection above all: RDP
// level 2 is irreversible). What firmware cannot do: lower read protection without a mass erase (not
// our case), or rely on the new level before the next reset (option bytes are loaded at reset). A
// power cut during the few milliseconds of the write can corrupt the option bytes, so it runs once,
// at boot, motor off, before the watchdog starts. QEMU models no flash interface: nothing to see there.

enum BrownOut {
    /// BOR_LEV 0b00 = level 3: reset below about 2.7 V (the Black Pill runs at 3.3 V).
    static let level3: UInt32 = 0b00

    /// Programs BOR level 3 if it is not set. QEMU does not model the flash interface (OPTCR reads
    /// 0, which is level 3 already), so there this does nothing.
    static func ensureLevel3() {
        let optcr = Flash.optcr.load()
        guard (optcr >> 2) & 0b11 != level3 else { return }
        // Unlock, write BOR_LEV with every other bit as it was, start, wait, lock.
        while Flash.sr.load() & (1 << 16) != 0 {}  // BSY
        Flash.optkeyr.store(0x0819_2A3B)
        Flash.optkeyr.store(0x4C5D_6E7F)
        Flash.optcr.store((optcr & ~(0b11 << 2 | 0b11)) | level3 << 2)  // OPTLOCK and OPTSTRT clear
        Flash.optcr.set(1 << 1)                     // OPTSTRT
        while Flash.sr.load() & (1 << 16) != 0 {}
        Flash.optcr.set(1 << 0)                     // OPTLOCK
    }
}
