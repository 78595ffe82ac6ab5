// Timer1 fast PWM (mode 14: TOP = ICR1 = 799, no prescaler): 20 kHz, above hearing and far above a
// motor's mechanical bandwidth, with 800 duty steps.
//
// Both outputs are inverting (COM1x = 3): the pin goes low at BOTTOM and high at the compare match, so
// the high time is TOP - OCR1x cycles: 0 % at OCR1x = TOP (the datasheet's constant-low case) up to
// 799/800 at OCR1x = 0. Every duty, 0 % included, is thus a compare value, and compare values are
// double-buffered in this mode (copied from the buffer at BOTTOM): a duty written during one period
// starts exactly with the next, never mid-pulse. The output-compare bits never change while running,
// so there are no pin glitches from switching between timer and port. The price is the top step:
// full drive is 799/800 (99.9 %).
// SPDX-License-Identifier: Apache-2.0
#include <avr/io.h>

#include "pwm.h"

void pwm_init(void) {
    PORTB &= ~(_BV(PIN_DRIVE_A) | _BV(PIN_DRIVE_B));
#if HBRIDGE
    DDRB |= _BV(PIN_DRIVE_A) | _BV(PIN_DRIVE_B);
#else
    DDRB |= _BV(PIN_DRIVE_A);
#endif
    // In the reset state (normal mode) compare registers are not buffered: these writes are immediate,
    // so the first period already has 0 % duty.
    OCR1A = PWM_OCR_OFF;
    OCR1B = PWM_OCR_OFF;
    // ICR1 before TCCR1B: on hardware either order works; simavr 1.6 reads ICR1 only when TCCR1B starts
    // the timer (a later ICR1 write is ignored there).
    ICR1 = PWM_TOP;
#if HBRIDGE
    TCCR1A = _BV(COM1A1) | _BV(COM1A0) | _BV(COM1B1) | _BV(COM1B0) | _BV(WGM11);
#else
    TCCR1A = _BV(COM1A1) | _BV(COM1A0) | _BV(WGM11);
#endif
    TCNT1 = 0;
    TIFR1 = _BV(TOV1);
    TIMSK1 = _BV(TOIE1);
    TCCR1B = _BV(WGM13) | _BV(WGM12) | _BV(CS10);  // mode 14, clk/1: the board clock starts here
}

uint16_t pwm_high_cycles(uint16_t magnitude) {
    // level x 800 / 32767, rounded, capped at the 799 inverting fast PWM can reach
    uint16_t cycles = (uint16_t)(((uint32_t)magnitude * PWM_PERIOD + 16383u) / 32767u);
    return cycles > PWM_TOP ? PWM_TOP : cycles;
}

void pwm_force_off(void) {
    TCCR1A &= ~(_BV(COM1A1) | _BV(COM1A0) | _BV(COM1B1) | _BV(COM1B0));  // pins follow PORTB: low
    PORTB &= ~(_BV(PIN_DRIVE_A) | _BV(PIN_DRIVE_B));
}
