// The fault path (see fault.h). Three ways in, one way out (outputs low, then a restart):
//  - the main loop stops feeding the watchdog for 250 ms: the watchdog interrupt turns the outputs off
//    and restarts the firmware;
//  - an interrupt without a handler (BADISR): the same, at once;
//  - the stack runs into the variables (a guard word just past .bss is overwritten): the same.
//
// The restart is a jump to the firmware's own reset vector with the watchdog off, not a watchdog reset:
// after a watchdog reset the chip starts the bootloader with the watchdog still running (WDRF forces
// WDE on, at its 16 ms timeout), and the old Nano bootloader (ATmegaBOOT) neither clears it nor feeds
// it, so it would be reset every 16 ms until unplugged (Optiboot turns it off and starts the firmware).
// A jump to 0 skips the bootloader, and fault_early puts back the reset state of every peripheral the
// firmware uses, so the restart starts like a power-up.
//
// Only a hang with interrupts disabled still ends in a watchdog reset (the interrupt cannot run; the
// watchdog's second timeout, 250 ms later, resets the chip): with Optiboot the firmware starts again,
// with the old Nano bootloader the chip stays in reset, outputs low (pins are inputs; the gate
// pull-down or the DRV8833's input pull-downs hold the motor off), until it is unplugged.
// After any reset the pins are inputs until pwm_init, held low by those pull-downs.
// SPDX-License-Identifier: Apache-2.0
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/wdt.h>

#include "fault.h"
#include "pwm.h"

#define GUARD 0xA55Au
#define STACK_PAINT 0xC5

extern uint8_t __heap_start;  // first byte after .data/.bss/.noinit (avr-libc linker script)
static uint16_t *const guard = (uint16_t *)&__heap_start;

// Before main, before .data and .bss are set up, first thing after the stack pointer: a watchdog reset
// leaves the watchdog running (WDRF keeps WDE set), at its shortest timeout; clearing WDRF and then the
// watchdog's enable (the datasheet's order) turns it off before anything slow happens. Then the reset
// state of what a restart (fault_restart) may have left running: Timer1 and Timer2 stopped and their
// interrupts off, SPI off, the drive pins low inputs, USART0 off, sleep off. Then the free RAM is painted, so that the simulator
// harness (or a debugger) can see how deep the stack has ever reached: the stack is still empty here.
void fault_early(void) __attribute__((naked, used, section(".init3")));
void fault_early(void) {
    MCUSR = 0;
    wdt_disable();
    TCCR1B = 0;
    TCCR1A = 0;
    TIMSK1 = 0;
    TIFR1 = _BV(ICF1) | _BV(OCF1B) | _BV(OCF1A) | _BV(TOV1);
    TCCR2B = 0;  // the accelerometer's alarm (sense.c) and the SPI port (spi.c)
    TIMSK2 = 0;
    TIFR2 = _BV(OCF2B) | _BV(OCF2A) | _BV(TOV2);
    SPCR = 0;
    PORTB = 0;
    DDRB = 0;
    UCSR0B = 0;
    SMCR = 0;
    for (uint8_t *p = &__heap_start; p < (uint8_t *)(RAMEND - 8); p++) *p = STACK_PAINT;
}

void fault_restart(void) {
    cli();
    pwm_force_off();
    wdt_disable();
    __asm__ __volatile__("jmp 0");  // the firmware's reset vector (the bootloader is only entered by a reset)
    for (;;) {
    }
}

void fault_init(void) {
    *guard = GUARD;
    wdt_enable(WDTO_250MS);
    WDTCSR |= _BV(WDIE);  // interrupt first, reset at the next timeout
}

#ifdef FAULT_TEST
#include "play.h"
// Test builds only (make fault-tests): once per power-up, 50 frames into the first playback, the firmware
// faults on purpose. FAULT_TEST 1: the main loop hangs with interrupts on (the watchdog interrupt's
// path); 2: it hangs with interrupts off (the watchdog reset); 3: the stack guard is overwritten;
// 4: the Timer1 interrupt is turned off (TIMSK1 = 0), so the output stage stops with the last duty on.
static uint8_t fault_test_done __attribute__((section(".noinit")));  // survives a restart, not a power-up
static void fault_test(void) {
    if (fault_test_done == 0xA5 || play_state != STATE_PLAYING || play_next_play < 50) return;
    fault_test_done = 0xA5;
#if FAULT_TEST == 1
    for (;;) {
    }
#elif FAULT_TEST == 2
    cli();
    for (;;) {
    }
#elif FAULT_TEST == 3
    *guard = 0;
#else
    TIMSK1 = 0;
#endif
}
#endif

void fault_check(void) {
#ifdef FAULT_TEST
    fault_test();
#endif
    wdt_reset();
    if (*guard != GUARD) fault_restart();
}

ISR(WDT_vect) { fault_restart(); }

ISR(BADISR_vect) { fault_restart(); }
