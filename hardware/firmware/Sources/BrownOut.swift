// Brown-out reset level, an option byte. From the factory the F401/F411 brown-out reset is off (only
// the ~1.7 V power-on/power-down reset acts), so a sagging supply can run the CPU and flash out of
// spec. The firmware can program the level itself (FLASH_OPTCR, RM0368/RM0383 "Option bytes"); it
// writes it once, when it differs, and keeps every other option bit (read protection above all: RDP
// level 2 is irreversible). What firmware cannot do: lower read protection without a mass erase (not
// our case), or rely on the new level before the next reset (option bytes are loaded at reset). A
// power cut during the few milliseconds of the write can corrupt the option bytes, so it runs once,
// at boot, motor off, before the watchdog starts; every wait is bounded, so a flash interface that
// never clears BSY cannot hang the boot without a watchdog. QEMU models no flash interface.
// SPDX-License-Identifier: Apache-2.0

enum BrownOut {
    /// BOR_LEV 0b00 = level 3: reset below about 2.7 V (the Black Pill runs at 3.3 V).
    static let level3: UInt32 = 0b00
    /// FLASH_SR: BSY, and the error flags (OPERR, WRPERR, PGAERR, PGPERR, PGSERR; written 1 to clear).
    static let srBSY: UInt32 = 1 << 16
    static let srErrors: UInt32 = 1 << 1 | 1 << 4 | 1 << 5 | 1 << 6 | 1 << 7
    /// The longest wait on BSY, in spins: about 1-2 s at 84 MHz. Option byte programming takes
    /// milliseconds; this only stops a stuck flash interface from hanging the boot.
    static let busySpins: UInt32 = 1 << 24

    /// What `ensureLevel3` did.
    enum Result: Equatable {
        /// BOR level 3 was set already (QEMU: OPTCR reads 0, which is level 3).
        case unchanged
        /// Written; it applies from the next reset.
        case written
        /// BSY did not clear within `busySpins` (before or after the write).
        case busyTimeout
        /// The flash interface flagged an error (FLASH_SR error bits, as read).
        case failed(UInt32)
    }

    /// Spins while the flash interface is busy; false when it still is after `busySpins`.
    static func waitNotBusy() -> Bool {
        var n: UInt32 = 0
        while Flash.sr.load() & srBSY != 0 {
            n &+= 1
            if n >= busySpins { return false }
        }
        return true
    }

    /// Programs BOR level 3 if it is not set. A failed write leaves the level as it was; the next boot
    /// reads OPTCR again and tries again.
    static func ensureLevel3() -> Result {
        let optcr = Flash.optcr.load()
        guard (optcr >> 2) & 0b11 != level3 else { return .unchanged }
        guard waitNotBusy() else { return .busyTimeout }
        Flash.sr.store(srErrors)  // clear error flags left from before (a bootloader's flash writes)
        // Unlock, write BOR_LEV with every other bit as it was, start, wait, lock.
        Flash.optkeyr.store(0x0819_2A3B)
        Flash.optkeyr.store(0x4C5D_6E7F)
        Flash.optcr.store((optcr & ~(0b11 << 2 | 0b11)) | level3 << 2)  // OPTLOCK and OPTSTRT clear
        Flash.optcr.set(1 << 1)                     // OPTSTRT
        let finished = waitNotBusy()
        Flash.optcr.set(1 << 0)                     // OPTLOCK
        guard finished else { return .busyTimeout }
        let errors = Flash.sr.load() & srErrors
        return errors == 0 ? .written : .failed(errors)
    }
}
