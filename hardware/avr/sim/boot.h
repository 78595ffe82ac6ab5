// A real Arduino bootloader in the simulated flash (--bootloader): loading it, resets into it, the
// flash's self-programming counted (and one page spoiled on purpose), and the flash dumped at exit.
// SPDX-License-Identifier: Apache-2.0
#ifndef BOOT_H
#define BOOT_H

#include <stdio.h>
#include <simavr/sim_avr.h>

// Loads an Intel hex bootloader into flash at its own addresses and makes its first address the reset
// vector (BOOTRST programmed, BOOTSZ to match: optiboot 0x7E00, ATmegaBOOT 0x7800). The code end
// becomes the end of flash, so the application the bootloader writes may run. 0 on success.
int boot_load(avr_t *avr, const char *hex);

// Counts SPM page erases and writes; with page >= 0 the write of that flash page (byte address /
// SPM_PAGESIZE) stores one byte wrong, like a worn cell. 0 on success.
int boot_watch_spm(avr_t *avr, int page);

// A power-on reset (MCUSR = PORF) and an external one (RESET pulled low, MCUSR = EXTRF: the Arduino's
// auto-reset when the host opens the port and DTR is asserted, or its button).
void boot_power_on(avr_t *avr);
void boot_external_reset(avr_t *avr);

// Writes the whole flash (32 KB, raw) to path. 0 on success.
int boot_dump(avr_t *avr, const char *path);

// One line on out: the bootloader's address and what SPM did.
void boot_report(FILE *out);

#endif
