// The motor drive: Timer1 fast PWM at 20 kHz on OC1A (D9) and, on H-bridge builds, OC1B (D10).
// SPDX-License-Identifier: Apache-2.0
#ifndef PWM_H
#define PWM_H

#include <stdint.h>

#include "board.h"

// Compare value for a zero duty: with inverting outputs, OCR1x = TOP holds the pin low.
#define PWM_OCR_OFF PWM_TOP

// Starts Timer1 (which is also the board clock) with both outputs at 0 % duty.
void pwm_init(void);

// High time in CPU cycles per PWM period (0 ... PWM_TOP) for a drive level's magnitude (0 ... 32767,
// protocol section 5). A positive level drives OC1A, a negative one OC1B (output.c).
uint16_t pwm_high_cycles(uint16_t magnitude);

// Fault path: both outputs low now, whatever the timer does (compare outputs disconnected).
void pwm_force_off(void);

#endif
