// The unique id's construction (see uid.h). The wafer and the die's X/Y position are the bytes that tell
// chips of one lot apart and are kept whole; only the lot number gives up a byte, folded with a nibble
// swap so that two lots whose first and last characters trade places do not fold alike.
// SPDX-License-Identifier: Apache-2.0
#include "uid.h"

enum { LOT = 0, RESERVED = 6, WAFER = 7, DIE_Y = 8, DIE_X = 9 };

void uid_from_signature(const uint8_t sn[UID_ROW_BYTES], uint8_t id[8]) {
    uint8_t last = sn[LOT + 5];
    id[0] = sn[LOT] ^ (uint8_t)(last << 4 | last >> 4);
    for (uint8_t i = 1; i < 5; i++) id[i] = sn[LOT + i];
    id[5] = sn[WAFER];
    id[6] = sn[DIE_Y];
    id[7] = sn[DIE_X];
}
