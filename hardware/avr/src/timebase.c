// timebase_due (see timebase.h). The 32 x 64-bit product has up to 96 bits; it is formed from two
// 32 x 32 -> 64-bit products (period = hi.lo): k x hi whole ticks, plus k x lo / 2^32 of fractions.
// SPDX-License-Identifier: Apache-2.0
#include "timebase.h"

static uint64_t mul32(uint32_t a, uint32_t b) { return (uint64_t)a * b; }

uint64_t timebase_due(const timebase *tb, uint32_t index) {
    int32_t k = (int32_t)(index - tb->anchor_index);
    uint32_t hi = (uint32_t)(tb->period_q32 >> 32), lo = (uint32_t)tb->period_q32;
    if (k >= 0) return tb->anchor_tick + mul32((uint32_t)k, hi) + (mul32((uint32_t)k, lo) >> 32);
    // Before the anchor: floor(-x) = -ceil(x) for the magnitude x = m x period / 2^32.
    uint32_t m = -(uint32_t)k;
    uint64_t frac = mul32(m, lo);
    uint64_t back = mul32(m, hi) + (frac >> 32) + ((uint32_t)frac != 0);
    return back >= tb->anchor_tick ? 0 : tb->anchor_tick - back;
}
