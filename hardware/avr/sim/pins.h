// The PWM pins OC1A (PB1, D9) and OC1B (PB2, D10) as the ATmega328P datasheet defines them, computed
// from simavr's Timer1 counter and the firmware's register writes, and every level change recorded.
// SPDX-License-Identifier: Apache-2.0
#ifndef PINS_H
#define PINS_H

#include <simavr/sim_avr.h>

// Hooks Timer1's and port B's registers. Call after avr_init, before running.
int pins_attach(avr_t *avr);

// The share of the current PWM period pin OC1A (c = 0) or OC1B (1) is high, from the compare value in
// force: what the emulated accelerometer's motor runs on.
double pins_duty(int c);

#endif
