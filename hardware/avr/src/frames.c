// The frame ring (see frames.h): slot = index mod FRAME_CAPACITY. The window rule (play.c) keeps every
// stored index within FRAME_CAPACITY of the next frame to play, so two live indices never share a slot.
// SPDX-License-Identifier: Apache-2.0
#include <string.h>

#include "frames.h"

#define SLOT(i) ((uint16_t)(i) & (FRAME_CAPACITY - 1))

static uint16_t values[FRAME_CAPACITY];
static uint8_t received[FRAME_CAPACITY / 8];

bool frames_has(uint32_t index) {
    uint16_t s = SLOT(index);
    return received[s >> 3] & (uint8_t)(1u << (s & 7));
}

uint16_t frames_get(uint32_t index) { return values[SLOT(index)]; }

void frames_put(uint32_t index, uint16_t raw) {
    uint16_t s = SLOT(index);
    values[s] = raw;
    received[s >> 3] |= (uint8_t)(1u << (s & 7));
}

void frames_clear(uint32_t index) {
    uint16_t s = SLOT(index);
    received[s >> 3] &= (uint8_t)~(1u << (s & 7));
}

void frames_clear_all(void) { memset(received, 0, sizeof received); }
