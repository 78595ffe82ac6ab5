// Messages this board sends (protocol section 4): INFO, STATUS, NAK, CLOCK, PLAYED, LIMITS.
// SPDX-License-Identifier: Apache-2.0
#ifndef REPLY_H
#define REPLY_H

#include <stdbool.h>
#include <stdint.h>

#include "wire_gen.h"  // message codes, sizes: generated from the Swift wire tables

// The protocol revision this firmware keeps (protocol.md section 10): 2 is revision 1.2. (Its STATUS
// has no rx_lost_bytes, which revision STATUS_LOST_REVISION adds.)
#define WIRE_REVISION 2
_Static_assert(WIRE_REVISION <= WIRE_REVISION_MAX, "a revision protocol.md does not define");
_Static_assert(WIRE_REVISION < STATUS_LOST_REVISION, "this STATUS lacks rx_lost_bytes");

// INFO; with `announce` (a HELLO that named host_revision) followed by the extension: the revision byte.
void reply_info(bool announce);
void reply_status(uint8_t ack_seq, uint64_t tick);  // ack_seq 0: unsolicited
void reply_nak(uint8_t code, uint8_t ref_seq, uint8_t ref_type, uint32_t detail);
void reply_clock(uint32_t token, uint64_t tick);
void reply_limits(uint64_t now);
bool reply_played(uint32_t first_index, uint16_t count, uint16_t late_count, uint32_t max_late_ticks,
                  uint16_t duty_crc, uint64_t first_tick);  // false: not sent (transmit ring full)

#endif
