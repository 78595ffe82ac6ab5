// The 64-bit board clock (see clock.h) and why a read can neither lose nor double an overflow.
//
// Timer1 counts CPU cycles 0 ... PWM_TOP and wraps (fast PWM, TOP = ICR1), setting its overflow flag TOV1.
// The overflow interrupt adds PWM_PERIOD to `base` (the tick of the current period's start); hardware
// clears TOV1 as the interrupt starts. A read is therefore base + TCNT1, plus one period if an overflow
// has happened that the interrupt has not yet counted. With interrupts disabled during the read:
//
//  1. `base` cannot change, and at most one overflow can be uncounted: an overflow waits for its
//     interrupt only while interrupts are off, and no code here keeps them off for 800 cycles (the
//     longest interrupt handler is about 150 cycles, the longest cli section about 60).
//  2. We read TCNT1 into t, then the flag. Flag clear: no uncounted overflow had happened when we read
//     the flag, so none had when we read t (which was earlier): the result is base + t. Counted once.
//  3. Flag set: an uncounted overflow exists. We read TCNT1 again, now after the flag was seen. In fast
//     PWM mode 14 TOV1 is set at the TOP -> BOTTOM transition, in the timer clock cycle in which TCNT1
//     is cleared (datasheet Figure 15-12; Microchip's ATmega328P automotive datasheet says so in words),
//     and simavr sets it at the wrap too. So the second reading is a count since the wrap, which by 1.
//     is far below PWM_PERIOD / 2: base + PWM_PERIOD + t. (Were the flag set one cycle early, at TOP,
//     the reading TOP itself would mean "not wrapped yet": base + TOP, no period to add; the code keeps
//     that case, so it is right under either reading.) The uncounted overflow is added exactly once, and
//     the first reading (which may predate the wrap) is never combined with it.
//
// Since every read is base + (a count within the period that contains the read), reads are monotonic
// and exact to the cycle. base is 64 bits (two words; the high word changes every 268 s), so the clock
// wraps after 36,000 years.
// SPDX-License-Identifier: Apache-2.0
#include <avr/interrupt.h>
#include <avr/io.h>

#include "clock.h"

volatile uint32_t clock_base_lo, clock_base_hi;

// Timer1's count since `base`, interrupts already off: TCNT1, plus one period for an overflow the
// interrupt has not counted yet (steps 2 and 3 above). At most PWM_TOP + PWM_PERIOD: fits 16 bits.
static inline uint16_t count_since_base(void) {
    uint16_t t = TCNT1;
    if (TIFR1 & _BV(TOV1)) {
        t = TCNT1;
        if (t < PWM_PERIOD / 2) t += PWM_PERIOD;
    }
    return t;
}

// The same read in 32 bits (cheaper on an 8-bit CPU).
uint32_t clock_now_lo(void) {
    uint8_t sreg = SREG;
    cli();
    uint16_t count = count_since_base();
    uint32_t lo = clock_base_lo;
    SREG = sreg;
    return lo + count;
}

uint64_t clock_now(void) {
    uint8_t sreg = SREG;
    cli();
    uint16_t count = count_since_base();
    uint32_t lo = clock_base_lo, hi = clock_base_hi;
    SREG = sreg;
    return ((uint64_t)hi << 32 | lo) + count;
}
