// The fault path (see fault.h). Three ways in, one way out (outputs low, then reset):
//  - the main loop stops feeding the watchdog for 250 ms: the watchdog interrupt turns the outputs off
//    and waits for the watchdog's second timeout, which resets the chip;
//  - an interrupt without a handler (BADISR): outputs off, reset 15 ms later;
//  - the stack runs into the variables (a guard word just past .bss is overwritten): the same.
// After any reset the pins are inputs until pwm_init: the MOSFET gate's pull-down (or the DRV8833's
// internal input pull-downs) holds the motor off meanwhile.
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/wdt.h>

#include "fault.h"
#include "pwm.h"

#define GUARD 0xA55Au
#define STACK_PAINT 0xC5

extern uint8_t __heap_start;  // first byte after .data/.bss/.noinit (avr-libc linker script)
static uint16_t *const guard = (uint16_t *)&__heap_start;

// Before main: a watchdog reset leaves the watchdog running (WDRF keeps WDE set), at its shortest
// timeout; it must be off before anything slow happens. Optiboot and the old Nano bootloader both jump
// straight here after a watchdog reset. Then the free RAM is painted, so that the simulator harness
// (or a debugger) can see how deep the stack has ever reached: the stack is still empty here.
void fault_early(void) __attribute__((naked, used, section(".init3")));
void fault_early(void) {
    MCUSR = 0;
    wdt_disable();
    for (uint8_t *p = &__heap_start; p < (uint8_t *)(RAMEND - 8); p++) *p = STACK_PAINT;
}

static void __attribute__((noreturn)) die(void) {
    cli();
    pwm_force_off();
    wdt_enable(WDTO_15MS);
    for (;;) {
    }
}

void fault_init(void) {
    *guard = GUARD;
    wdt_enable(WDTO_250MS);
    WDTCSR |= _BV(WDIE);  // interrupt first, reset at the next timeout
}

void fault_check(void) {
    wdt_reset();
    if (*guard != GUARD) die();
}

ISR(WDT_vect) {
    pwm_force_off();
    for (;;) {  // stay here: the watchdog's next timeout resets the chip
    }
}

ISR(BADISR_vect) { die(); }
