// Framing (protocol section 2): collecting received bytes into delimited blocks, COBS-decoding and
// checking them; and sending messages as COBS frames with this board's sequence numbers.
// SPDX-License-Identifier: Apache-2.0
#ifndef LINK_H
#define LINK_H

#include <stdbool.h>
#include <stdint.h>

#include "wire_gen.h"  // WIRE_VERSION, WIRE_MAX_PAYLOAD, WIRE_MAX_ENCODED (a longer COBS block is "too long")

typedef struct {
    uint8_t type;
    uint8_t seq;
    uint8_t len;
    const uint8_t *payload;
    uint32_t arrived;  // board tick (low 32 bits) at which its last byte arrived
} message;

// Takes received bytes until a whole, checked frame is there (true: `m` describes it, valid until the
// next call) or the receive ring is empty (false). Bad frames are counted and skipped.
bool link_receive(message *m);

// Frames dropped since boot: for a bad CRC / for any other framing reason (wrap at 2^16); and messages
// this board did not send because its transmit ring was full.
extern uint16_t link_crc_errors, link_other_errors, link_tx_dropped;

// Sending: build the payload in link_payload (up to LINK_TX_MAX_PAYLOAD bytes), then link_send adds the
// header and CRC, COBS-encodes the frame into the transmit ring and ends it with the delimiter. If the
// ring cannot take the whole frame (a host flooding the board with requests draws more reply bytes than
// the line carries), the message is dropped instead: waiting would stall the main loop, and with it the
// motor's schedule. A lost reply is what a host must survive on any serial line anyway.
// INFO with a name of up to 28 characters; every other message is smaller (SAMPLES from this board: 12 +
// 32 bytes at most, sense.h).
#define LINK_TX_MAX_PAYLOAD 56
_Static_assert(LINK_TX_MAX_PAYLOAD >= SIZE_STATUS && LINK_TX_MAX_PAYLOAD >= SIZE_PLAYED, "reply too big");
extern uint8_t link_tx_frame[WIRE_HEADER_SIZE + LINK_TX_MAX_PAYLOAD + WIRE_CRC_SIZE];
#define link_payload (link_tx_frame + WIRE_HEADER_SIZE)
bool link_send(uint8_t type, uint8_t len);  // false: dropped, the transmit ring was full

// Little-endian field access.
static inline uint16_t le16(const uint8_t *p) { return (uint16_t)p[0] | (uint16_t)p[1] << 8; }
static inline uint32_t le32(const uint8_t *p) { return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16; }
static inline uint64_t le64(const uint8_t *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }
void put16(uint8_t *p, uint16_t v);
void put32(uint8_t *p, uint32_t v);
void put64(uint8_t *p, uint64_t v);

#endif
