// The watchdog's "interrupt and system reset" mode as the ATmega328P datasheet has it: the first timeout
// raises the interrupt, "if the interrupt is not executed before the next time-out, a System Reset will
// be applied". simavr 1.6 raises the interrupt at every timeout and never resets while WDIE is set, so
// firmware hung with interrupts off would hang there for ever. This adds the reset: WDIF (the interrupt
// pending) and WDE set for a whole timeout period reset the MCU, with WDRF set in MCUSR and the
// watchdog left running at 16 ms, as after a real watchdog reset.
// SPDX-License-Identifier: Apache-2.0
#include <simavr/avr_watchdog.h>
#include <string.h>

#include "watchdog.h"

enum { MCUSR_ = 0x54, WDTCSR_ = 0x60, WDIF = 0x80, WDE = 0x08, WDRF = 0x08 };

static avr_watchdog_t *find_watchdog(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next)
        if (!strcmp(io->kind, "watchdog")) return (avr_watchdog_t *)io;
    return NULL;
}

void watchdog_check(avr_t *avr) {
    static avr_watchdog_t *wd;
    static uint64_t pending_since;
    if (!wd && !(wd = find_watchdog(avr))) return;
    uint8_t csr = avr->data[WDTCSR_];
    if ((csr & (WDIF | WDE)) != (WDIF | WDE) || wd->cycle_count == 0) {
        pending_since = 0;
        return;
    }
    if (!pending_since) pending_since = avr->cycle;
    if (avr->cycle - pending_since < wd->cycle_count) return;
    pending_since = 0;
    // As simavr's own watchdog reset does: after it, WDRF is set and the watchdog runs at its shortest
    // timeout (16 ms) until the firmware turns it off (WDRF forces WDE on).
    wd->reset_context.wdrf = 1;
    wd->reset_context.avr_run = avr->run;
    avr_reset(avr);
    avr->data[MCUSR_] |= WDRF;
}

void watchdog_survive_reset(avr_t *avr) {
    avr_watchdog_t *wd = find_watchdog(avr);
    if (!wd || !(avr->data[MCUSR_] & WDRF)) return;
    wd->reset_context.wdrf = 1;  // simavr's own restart: WDE and WDRF set, 16 ms
    wd->reset_context.avr_run = avr->run;
}
