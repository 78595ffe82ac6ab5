// A timebase maps an index to a board tick: due(i) = anchor_tick + floor((int32)(i - anchor_index) x
// period_q32 / 2^32), clamped at 0 (protocol section 3). START sets the frames' timebase; the LRA
// carrier's half periods use one too.
// SPDX-License-Identifier: Apache-2.0
#ifndef TIMEBASE_H
#define TIMEBASE_H

#include <stdint.h>

typedef struct {
    uint32_t anchor_index;
    uint64_t anchor_tick;
    uint64_t period_q32;  // ticks per index, unsigned 32.32 fixed point
} timebase;

uint64_t timebase_due(const timebase *tb, uint32_t index);

#endif
