// Receiving and sending frames (see link.h). A received block is kept in one buffer and decoded in place;
// a block over WIRE_MAX_ENCODED bytes is not stored past that and is dropped at its delimiter.
// SPDX-License-Identifier: Apache-2.0
#include "cobs.h"
#include "crc16.h"
#include "link.h"
#include "uart.h"

static uint8_t block[WIRE_MAX_ENCODED];
static uint8_t block_len;
static bool block_too_long;
static uint8_t tx_seq;
uint8_t link_tx_frame[WIRE_HEADER_SIZE + LINK_TX_MAX_PAYLOAD + WIRE_CRC_SIZE];
uint16_t link_crc_errors, link_other_errors, link_tx_dropped;

// Checks a decoded frame of `n` bytes (protocol section 2, step 4).
static bool frame_ok(uint8_t n) {
    if (n < WIRE_HEADER_SIZE + WIRE_CRC_SIZE) {
        link_other_errors++;
        return false;
    }
    if (crc16(block, n - 2) != le16(block + n - 2)) {
        link_crc_errors++;
        return false;
    }
    if (block[0] != WIRE_VERSION || WIRE_HEADER_SIZE + block[3] + WIRE_CRC_SIZE != n) {
        link_other_errors++;
        return false;
    }
    return true;
}

bool link_receive(message *m) {
    while (uart_rx_ready()) {
        uint8_t b = uart_rx_take();
        if (b != 0) {
            if (block_len < WIRE_MAX_ENCODED) block[block_len++] = b;
            else block_too_long = true;
            continue;
        }
        // A delimiter: judge the block it ends.
        uint32_t arrived = uart_rx_zero_tick();
        uint8_t n = block_len;
        bool too_long = block_too_long;
        block_len = 0;
        block_too_long = false;
        if (too_long) {
            link_other_errors++;
            continue;
        }
        if (n == 0) continue;  // an empty block (a lone delimiter) is ignored silently
        int16_t raw = cobs_decode_in_place(block, n);
        if (raw < 0) {
            link_other_errors++;
            continue;
        }
        if (!frame_ok((uint8_t)raw)) continue;
        m->type = block[1];
        m->seq = block[2];
        m->len = block[3];
        m->payload = block + WIRE_HEADER_SIZE;
        m->arrived = arrived;
        return true;
    }
    return false;
}

void put16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
void put32(uint8_t *p, uint32_t v) {
    put16(p, (uint16_t)v);
    put16(p + 2, (uint16_t)(v >> 16));
}
void put64(uint8_t *p, uint64_t v) {
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

bool link_send(uint8_t type, uint8_t len) {
    // COBS adds one byte to a frame this short, plus the delimiter.
    if (uart_tx_free() < WIRE_HEADER_SIZE + len + WIRE_CRC_SIZE + 2) {
        link_tx_dropped++;
        return false;
    }
    uint8_t *f = link_tx_frame;
    f[0] = WIRE_VERSION;
    f[1] = type;
    f[2] = tx_seq++;
    f[3] = len;
    put16(f + WIRE_HEADER_SIZE + len, crc16(f, WIRE_HEADER_SIZE + len));
    cobs_encode(f, WIRE_HEADER_SIZE + len + WIRE_CRC_SIZE, uart_put);
    uart_put(WIRE_DELIMITER);
    return true;
}
