// The drive ceiling's overdrive budget (see limit.h), in board ticks: spent one tick per tick above the
// ceiling; earned back at budget / recovery per tick at or below it, never above the budget. A spent
// budget locks overdrive out until it is whole again, so after a run the board had to cut short the
// motor spends at least the recovery time at or below the ceiling.
// SPDX-License-Identifier: Apache-2.0
#include <stdbool.h>

#include "limit.h"

typedef struct {
    uint32_t budget;     // overdrive ticks left at `last`
    uint32_t remainder;  // refill not yet credited, in 1/LIMIT_RECOVERY_TICKS of a tick
    uint64_t last;       // tick of the last output change accounted for
    bool above, locked;
} guard_state;

static guard_state g = {LIMIT_BUDGET_TICKS, 0, 0, false, false};

static void advance(guard_state *s, uint64_t tick) {
    if (tick <= s->last) return;
    uint64_t dt = tick - s->last;
    s->last = tick;
    if (s->above) {
        s->budget = s->budget > dt ? s->budget - (uint32_t)dt : 0;
        if (s->budget == 0) s->locked = true;
    } else if (s->budget < LIMIT_BUDGET_TICKS) {
        if (dt >= LIMIT_RECOVERY_TICKS) {
            s->budget = LIMIT_BUDGET_TICKS;
        } else {  // dt < 2^24, budget < 2^21: the product fits 64 bits
            uint64_t earned = s->remainder + dt * LIMIT_BUDGET_TICKS;
            uint64_t b = s->budget + earned / LIMIT_RECOVERY_TICKS;
            s->remainder = (uint32_t)(earned % LIMIT_RECOVERY_TICKS);
            s->budget = b > LIMIT_BUDGET_TICKS ? LIMIT_BUDGET_TICKS : (uint32_t)b;
        }
        if (s->budget == LIMIT_BUDGET_TICKS) {
            s->locked = false;
            s->remainder = 0;
        }
    }
}

int16_t limit_apply(int16_t level, uint64_t tick) {
    advance(&g, tick);
    int16_t out = level;
    uint16_t mag = level < 0 ? (uint16_t)-level : (uint16_t)level;
    if (mag > (uint16_t)LIMIT_CEILING && (g.locked || g.budget == 0)) {
        out = level < 0 ? -LIMIT_CEILING : LIMIT_CEILING;
        mag = LIMIT_CEILING;
    }
    g.above = mag > (uint16_t)LIMIT_CEILING;
    return out;
}

bool limit_deadline(uint64_t *tick) {
    if (g.above) *tick = g.last + g.budget;
    return g.above;
}

uint16_t limit_available_ms(uint64_t now) {
    guard_state s = g;
    advance(&s, now);
    uint32_t ms = s.budget / (CLOCK_HZ / 1000);
    return ms > OVERDRIVE_MS ? OVERDRIVE_MS : (uint16_t)ms;
}
