// The board clock: a 64-bit count of CPU cycles (16 MHz ticks) since Timer1 started, read on demand from
// Timer1's counter plus a software count of its overflows (one every PWM period, 800 ticks).
// SPDX-License-Identifier: Apache-2.0
#ifndef CLOCK_H
#define CLOCK_H

#include <stdint.h>

#include "board.h"

// Tick of the most recent PWM period start (BOTTOM) the overflow interrupt has counted; a multiple of
// PWM_PERIOD. Written only by the overflow interrupt (bottom_isr.S).
extern volatile uint32_t clock_base_lo, clock_base_hi;

// The board clock now. Any context; interrupts are disabled for about 40 cycles.
uint64_t clock_now(void);

// Low 32 bits of clock_now() (cheaper): enough to compare ticks less than 2^31 (134 s) apart.
uint32_t clock_now_lo(void);

// The full tick of an event known by its low 32 bits, within 2^31 ticks of `now` either way (an
// interrupt may stamp an event just after `now` was read).
static inline uint64_t clock_widen(uint64_t now, uint32_t lo) { return now + (int64_t)(int32_t)(lo - (uint32_t)now); }

#endif
