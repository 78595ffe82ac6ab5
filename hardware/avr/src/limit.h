// The motor's drive ceiling (protocol section 4, LIMITS; INFO capability bit 2), enforced on the board
// whatever the host sends: a level above the ceiling (rated / supply voltage) is overdrive, allowed only
// from a bounded budget. The same rule as BoardCore's OverdriveGuard (Sources/BoardCore/DriveLimit.swift).
// SPDX-License-Identifier: Apache-2.0
#ifndef LIMIT_H
#define LIMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"

// Highest level magnitude the motor may hold: rated / supply x 32767 (board.h gives the ratings).
#define LIMIT_CEILING ((int16_t)((uint32_t)MOTOR_RATED_MV * 32767u / SUPPLY_MV))
#define LIMIT_BUDGET_TICKS ((uint32_t)OVERDRIVE_MS * (CLOCK_HZ / 1000))
#define LIMIT_RECOVERY_TICKS ((uint32_t)RECOVERY_MS * (CLOCK_HZ / 1000))

// The level to output from `tick` on when `level` is wanted (call for every output change, in tick
// order; the tick is when the change reaches the pin: a PWM period start).
int16_t limit_apply(int16_t level, uint64_t tick);

// While the output is above the ceiling: true, and the tick at which the budget runs out (when the
// output must drop to the ceiling).
bool limit_deadline(uint64_t *tick);

// Overdrive milliseconds left at `now` (LIMITS available_ms).
uint16_t limit_available_ms(uint64_t now);

#endif
