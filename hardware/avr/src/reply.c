// Building this board's messages into the link's transmit buffer (see reply.h).
// SPDX-License-Identifier: Apache-2.0
#include <avr/boot.h>
#include <avr/pgmspace.h>
#include <string.h>

#include "board.h"
#include "limit.h"
#include "link.h"
#include "output.h"
#include "play.h"
#include "reply.h"
#include "sense.h"
#include "uart.h"
#include "uid.h"

// The ATmega328P has no documented unique ID. Its signature row holds the die's lot number, wafer and
// x/y position at 0x0E-0x17 (what the ArduinoUniqueID library reads): all of them, folded into 64 bits
// by uid.c (protocol.md, INFO). (simavr does not model the signature row: there the ID is whatever its
// LPM returns; `make host-test` checks the construction.)
static void put_unique_id(uint8_t *p) {
    uint8_t sn[UID_ROW_BYTES];
    for (uint8_t i = 0; i < UID_ROW_BYTES; i++) sn[i] = boot_signature_byte_get(UID_ROW_FIRST + i);
    uid_from_signature(sn, p);
}

void reply_info(bool announce) {
    static const char name[] PROGMEM = BOARD_NAME;
    _Static_assert(sizeof name - 1 <= BOARD_NAME_CAPACITY, "BOARD_NAME too long");
    uint8_t *p = link_payload;
    p[0] = WIRE_VERSION;
    p[1] = FW_MAJOR;
    p[2] = FW_MINOR;
    p[3] = FW_PATCH;
    p[4] = MOTOR_KIND;
    p[5] = PWM_BITS;
    p[6] = CAPABILITIES | (sense_available() ? CAP_SENSOR : 0);
    put16(p + 7, FRAME_CAPACITY);
    put16(p + 9, MIN_FRAME_RATE);
    put16(p + 11, MAX_FRAME_RATE);
    put32(p + 13, CLOCK_HZ);
    put_unique_id(p + 17);
    put16(p + 25, LRA_DEFAULT_DHZ);
    p[SIZE_INFO_FIXED - 1] = sizeof name - 1;
    memcpy_P(p + SIZE_INFO_FIXED, name, sizeof name - 1);
    p[SIZE_INFO_FIXED + sizeof name - 1] = WIRE_REVISION;  // the extension, sent only when announcing
    link_send(MSG_INFO, SIZE_INFO_FIXED + sizeof name - 1 + (announce ? 1 : 0));
}

void reply_status(uint8_t ack_seq, uint64_t tick) {
    uint8_t *p = link_payload;
    uint16_t fill = play_fill();
    p[0] = play_state;
    p[1] = ack_seq;
    put16(p + 2, fill);
    put16(p + 4, FRAME_CAPACITY - fill);
    put32(p + 6, play_next_expected);
    put32(p + 10, play_next_play);
    put32(p + 14, play_underruns);
    put32(p + 18, play_late_frames);
    put32(p + 22, play_duplicates);
    put16(p + 26, link_crc_errors);
    // Frames dropped for any other reason: those the framing refused, plus bytes the UART lost or got
    // wrong (ring overflow, FE0, DOR0), each of which also spoils the frame it belonged to.
    put16(p + 28, (uint16_t)(link_other_errors + uart_rx_lost()));
    put16(p + 30, play_failsafe_trips);
    put64(p + 32, tick);
    put16(p + 40, (uint16_t)out_level_now());
    link_send(MSG_STATUS, SIZE_STATUS);
}

void reply_nak(uint8_t code, uint8_t ref_seq, uint8_t ref_type, uint32_t detail) {
    uint8_t *p = link_payload;
    p[0] = code;
    p[1] = ref_seq;
    p[2] = ref_type;
    put32(p + 3, detail);
    link_send(MSG_NAK, SIZE_NAK);
}

void reply_clock(uint32_t token, uint64_t tick) {
    put32(link_payload, token);
    put64(link_payload + 4, tick);
    link_send(MSG_CLOCK, SIZE_CLOCK);
}

void reply_limits(uint64_t now) {
    uint8_t *p = link_payload;
    put16(p, (uint16_t)LIMIT_CEILING);
    put16(p + 2, OVERDRIVE_MS);
    put16(p + 4, RECOVERY_MS);
    put16(p + 6, limit_available_ms(now));
    put16(p + 8, MOTOR_RATED_MV);
    put16(p + 10, SUPPLY_MV);
    link_send(MSG_LIMITS, SIZE_LIMITS);
}

bool reply_played(uint32_t first_index, uint16_t count, uint16_t late_count, uint32_t max_late_ticks,
                  uint16_t duty_crc, uint64_t first_tick) {
    uint8_t *p = link_payload;
    put32(p, first_index);
    put16(p + 4, count);
    put16(p + 6, late_count);
    put32(p + 8, max_late_ticks);
    put16(p + 12, duty_crc);
    put64(p + 14, first_tick);
    return link_send(MSG_PLAYED, SIZE_PLAYED);
}
