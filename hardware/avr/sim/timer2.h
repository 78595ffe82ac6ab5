// Timer2 as the ATmega328P datasheet defines it, for what the firmware uses it for (the accelerometer's
// sample alarm, src/sense.c): normal and CTC modes, the prescaler, TCNT2 and OCR2A writes, the compare
// match A flag and interrupt.
// SPDX-License-Identifier: Apache-2.0
#ifndef TIMER2_H
#define TIMER2_H

#include <simavr/sim_avr.h>

// Takes Timer2's TCCR2A/B, TCNT2 and OCR2A over from simavr. Call after avr_init, before running.
int timer2_attach(avr_t *avr);

#endif
