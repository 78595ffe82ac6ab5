// Host message dispatch (see proto.h).
// SPDX-License-Identifier: Apache-2.0
#include <stdbool.h>

#include "clock.h"

#include "link.h"
#include "play.h"
#include "proto.h"
#include "reply.h"
#include "sense.h"

// Whether the payload has exactly the size its type prescribes (FRAMES: from its own format and count,
// 1 ... 234 u8 or 1 ... 117 16-bit values, no i16 -32768).
static bool payload_ok(const message *m) {
    const uint8_t *p = m->payload;
    switch (m->type) {
    case MSG_HELLO: return m->len == SIZE_HELLO || m->len == SIZE_HELLO_REVISION;  // revision 1.2: an optional host_revision byte
    case MSG_HEARTBEAT: return m->len == SIZE_HEARTBEAT;
    case MSG_LIMITS_REQUEST: return m->len == SIZE_LIMITS_REQUEST;
    case MSG_SENSE: return m->len == SIZE_SENSE;
    case MSG_CONFIGURE: return m->len == SIZE_CONFIGURE;
    case MSG_CLOCK_REQUEST: return m->len == SIZE_CLOCK_REQUEST;
    case MSG_STOP: return m->len == SIZE_STOP;
    case MSG_START: return m->len == SIZE_START;
    case MSG_FRAMES: {
        if (m->len < SIZE_FRAMES_HEADER) return false;
        uint8_t format = p[4], n = p[5];
        if (format < FMT_U8 || format > FMT_I16 || n == 0) return false;
        uint8_t size = format == FMT_U8 ? 1 : 2;
        if (n > (format == FMT_U8 ? FRAMES_MAX_U8 : FRAMES_MAX_U16) || m->len != SIZE_FRAMES_HEADER + n * size)
            return false;
        if (format == FMT_I16)
            for (uint8_t k = 0; k < n; k++)
                if (le16(p + SIZE_FRAMES_HEADER + 2 * k) == 0x8000) return false;
        return true;
    }
    default: return false;
    }
}

static void frames(const message *m) {
    const uint8_t *p = m->payload;
    frames_result res = {false, false, 0, 0};
    refusal r = play_frames(le32(p), p[4], p[5], p + SIZE_FRAMES_HEADER, &res);
    if (r.code) {  // refused whole: the NAK is the only reply
        reply_nak(r.code, m->seq, m->type, r.detail);
        return;
    }
    if (res.full) reply_nak(NAK_BUFFER_FULL, m->seq, m->type, res.full_detail);
    if (res.gap) reply_nak(NAK_GAP, m->seq, m->type, res.gap_detail);
    reply_status(m->seq, clock_now());
}

void proto_handle(const message *m) {
    const uint8_t *p = m->payload;
    // REPLACE (capability bit 3) is not taken here; SENSE (bit 4) only with an accelerometer found at boot.
    if (m->type == 0 || (m->type > MSG_LIMITS_REQUEST && !(m->type == MSG_SENSE && sense_available()))) {
        link_other_errors++;
        reply_nak(NAK_UNKNOWN_TYPE, m->seq, m->type, m->type);
        return;
    }
    if (!payload_ok(m)) {
        link_other_errors++;
        reply_nak(NAK_BAD_MESSAGE, m->seq, m->type, 0);
        return;
    }
    play_valid_message(m->arrived);  // feeds the failsafe, even if what follows refuses it
    sense_host_alive(m->arrived);    // and keeps sampling going
    refusal r = {0, 0};
    switch (m->type) {
    case MSG_HELLO: reply_info(m->len == 1); return;
    case MSG_HEARTBEAT: break;
    case MSG_CLOCK_REQUEST: reply_clock(le32(p), clock_now()); return;
    case MSG_LIMITS_REQUEST: reply_limits(clock_now()); return;
    case MSG_SENSE: sense_handle(m->seq, p); return;
    case MSG_FRAMES: frames(m); return;
    case MSG_CONFIGURE: {
        stream_config c = {le16(p), p[2], le16(p + 3), le16(p + 5), p[7], le16(p + 8)};
        r = play_configure(&c);
        break;
    }
    case MSG_START: {
        timebase tb = {le32(p), le64(p + 4), le64(p + 12)};
        r = play_start(&tb);
        break;
    }
    case MSG_STOP: play_stop(le32(p)); break;
    }
    if (r.code) reply_nak(r.code, m->seq, m->type, r.detail);
    else reply_status(m->seq, clock_now());
}
