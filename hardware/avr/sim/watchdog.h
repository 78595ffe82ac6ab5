// The watchdog's reset when its interrupt cannot run, which simavr 1.6 leaves out (see watchdog.c).
// SPDX-License-Identifier: Apache-2.0
#ifndef WATCHDOG_H
#define WATCHDOG_H

#include <simavr/sim_avr.h>

// Call between avr_run calls: resets the MCU (WDRF set) once the watchdog interrupt has been pending
// for a whole timeout with the watchdog's reset enabled.
void watchdog_check(avr_t *avr);

// Before a reset that is not the watchdog's (the RESET pin): with WDRF still set in MCUSR the watchdog
// keeps running after it at 16 ms, as the datasheet has it (WDRF forces WDE on; only a power-on reset or
// writing MCUSR clears WDRF).
void watchdog_survive_reset(avr_t *avr);

#endif
