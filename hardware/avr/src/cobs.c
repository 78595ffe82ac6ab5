// COBS decoding in place and streaming encoding (see cobs.h).
// SPDX-License-Identifier: Apache-2.0
#include "cobs.h"

int16_t cobs_decode_in_place(uint8_t *buf, uint8_t n) {
    uint8_t in = 0, out = 0;
    while (in < n) {
        uint8_t code = buf[in++];
        if (code == 0) return -1;
        uint8_t run = code - 1;
        if (run > n - in) return -1;  // the group claims more bytes than the block holds
        while (run--) buf[out++] = buf[in++];
        // A group shorter than 254 data bytes implies a zero after it, except at the very end.
        if (code != 0xFF && in < n) buf[out++] = 0;
    }
    return out;
}

void cobs_encode(const uint8_t *raw, uint8_t n, void (*put)(uint8_t)) {
    uint8_t start = 0;  // first byte of the current group
    for (;;) {
        uint8_t end = start;
        while (end < n && raw[end] != 0 && end - start < 254) end++;
        uint8_t len = end - start;
        put(len + 1);
        for (uint8_t i = start; i < end; i++) put(raw[i]);
        if (len == 254) {  // code 0xFF: a full group, no zero implied after it
            if (end >= n) return;
            start = end;
            continue;
        }
        if (end >= n) return;  // the last group: the zero it would imply is dropped
        start = end + 1;       // raw[end] is the zero this group's code stands for
        if (start == n) {      // the frame ends with a zero: an empty final group carries it
            put(1);
            return;
        }
    }
}
