// The frame ring: FRAME_CAPACITY slots of raw duty values indexed by frame index, with a received bit
// per slot (selective repeat keeps frames past a hole).
// SPDX-License-Identifier: Apache-2.0
#ifndef FRAMES_H
#define FRAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"

bool frames_has(uint32_t index);
uint16_t frames_get(uint32_t index);
void frames_put(uint32_t index, uint16_t raw);
void frames_clear(uint32_t index);
void frames_clear_all(void);

// Serial-number arithmetic on frame indices (protocol section 3): a - b as a signed distance.
static inline int32_t index_distance(uint32_t a, uint32_t b) { return (int32_t)(a - b); }

#endif
