// Messages this board sends (protocol section 4): INFO, STATUS, NAK, CLOCK, PLAYED, LIMITS.
#ifndef REPLY_H
#define REPLY_H

#include <stdbool.h>
#include <stdint.h>

#define MSG_HELLO 0x01
#define MSG_CONFIGURE 0x02
#define MSG_CLOCK_REQ 0x03
#define MSG_FRAMES 0x04
#define MSG_START 0x05
#define MSG_STOP 0x06
#define MSG_HEARTBEAT 0x07
#define MSG_LIMITS_REQ 0x08
#define MSG_INFO 0x81
#define MSG_CLOCK 0x83
#define MSG_STATUS 0x84
#define MSG_NAK 0x85
#define MSG_PLAYED 0x86
#define MSG_LIMITS 0x87

// The protocol revision this firmware keeps (protocol.md section 10): 2 is revision 1.2.
#define WIRE_REVISION 2

// INFO; with `announce` (a HELLO that named host_revision) followed by the extension: the revision byte.
void reply_info(bool announce);
void reply_status(uint8_t ack_seq, uint64_t tick);  // ack_seq 0: unsolicited
void reply_nak(uint8_t code, uint8_t ref_seq, uint8_t ref_type, uint32_t detail);
void reply_clock(uint32_t token, uint64_t tick);
void reply_limits(uint64_t now);
bool reply_played(uint32_t first_index, uint16_t count, uint16_t late_count, uint32_t max_late_ticks,
                  uint16_t duty_crc, uint64_t first_tick);  // false: not sent (transmit ring full)

#endif
