// COBS (Consistent Overhead Byte Stuffing): decoding a received block in place, and encoding a raw frame
// byte by byte into a sink (the UART transmit ring), so that 0x00 only ever appears as the delimiter.
// SPDX-License-Identifier: Apache-2.0
#ifndef COBS_H
#define COBS_H

#include <stdint.h>

// Decodes `n` COBS bytes at `buf` into `buf` itself (the output is never longer than the input).
// Returns the decoded length, or -1 for a zero code byte or a code running past the end.
int16_t cobs_decode_in_place(uint8_t *buf, uint8_t n);

// Encodes `n` raw bytes, handing every encoded byte (delimiter excluded) to `put`.
void cobs_encode(const uint8_t *raw, uint8_t n, void (*put)(uint8_t));

#endif
