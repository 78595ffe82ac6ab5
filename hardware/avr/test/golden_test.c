// Host test: protocol.md's golden vectors (section 9) through the firmware's own C codec: link.c (COBS via
// cobs.c, CRC via crc16.c, header checks), proto.c (payload checks and field offsets of host messages) and
// reply.c (the board messages' layouts, encoded to the wire byte for byte). `make host-test`; the
// Swift test AVRHostTests runs it. Usage: golden_test PROTOCOL_MD. Exits non-zero on any failure.
// Expected field values are those of the examples (Tests/MotorWireTests/GoldenVectors.swift, protocol.md's
// prose); the stubs below stand in for the hardware and the stream (play.c), recording what proto.c asked.
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/board.h"
#include "../src/clock.h"
#include "../src/crc16.h"
#include "../src/limit.h"
#include "../src/link.h"
#include "../src/output.h"
#include "../src/play.h"
#include "../src/proto.h"
#include "../src/reply.h"
#include "../src/uart.h"

static int failures;
#define CHECK(cond, ...)                        \
    do {                                        \
        if (!(cond)) {                          \
            failures++;                         \
            printf("FAIL %s: ", current);       \
            printf(__VA_ARGS__);                \
            printf("\n");                       \
        }                                       \
    } while (0)
static const char *current = "";

// ---- stubs: UART (receive from a buffer, transmit into one), clock, output, limit, stream ----
static uint8_t rx[512], tx[512];
static int rx_len, rx_pos, tx_len;
bool uart_rx_ready(void) { return rx_pos < rx_len; }
uint8_t uart_rx_take(void) { return rx[rx_pos++]; }
uint32_t uart_rx_zero_tick(void) { return 0; }
void uart_put(uint8_t b) { if (tx_len < (int)sizeof tx) tx[tx_len++] = b; }
uint8_t uart_tx_free(void) { return 255; }
uint16_t uart_rx_lost(void) { return 0; }
uint64_t clock_now(void) { return 0; }
static int16_t level_now;
int16_t out_level_now(void) { return level_now; }
uint16_t limit_available_ms(uint64_t now) { (void)now; return OVERDRIVE_MS; }

uint8_t play_state;
uint32_t play_next_expected, play_next_play, play_underruns, play_late_frames, play_duplicates;
uint16_t play_failsafe_trips;
static uint16_t fill;
uint16_t play_fill(void) { return fill; }

// What proto.c handed the stream, for the host examples.
static struct {
    const char *call;
    stream_config cfg;
    timebase tb;
    uint32_t first, stop_at;
    uint8_t format, n, values[FRAMES_MAX_U8];
} got;
void play_valid_message(uint32_t arrived) { (void)arrived; }
refusal play_configure(const stream_config *c) { got.call = "configure"; got.cfg = *c; return (refusal){0, 0}; }
refusal play_frames(uint32_t first, uint8_t format, uint8_t n, const uint8_t *values, frames_result *r) {
    (void)r;
    got.call = "frames";
    got.first = first;
    got.format = format;
    got.n = n;
    memcpy(got.values, values, format == FMT_U8 ? n : 2u * n);
    return (refusal){0, 0};
}
refusal play_start(const timebase *tb) { got.call = "start"; got.tb = *tb; return (refusal){0, 0}; }
void play_stop(uint32_t at_index) { got.call = "stop"; got.stop_at = at_index; }

// ---- protocol.md's golden blocks ----
typedef struct {
    char name[32];
    uint8_t bytes[300];
    int len;
} vector;
static vector vectors[64];
static int n_vectors;

// Every "<!-- golden: NAME -->" followed by a ```text block of hex bytes.
static void read_vectors(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("FAIL cannot read %s\n", path);
        exit(1);
    }
    static char doc[200000];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = 0;
    for (char *p = doc; (p = strstr(p, "<!-- golden: ")) && n_vectors < 64;) {
        vector *v = &vectors[n_vectors++];
        p += strlen("<!-- golden: ");
        int k = 0;
        while (*p && *p != ' ' && k < 31) v->name[k++] = *p++;
        v->name[k] = 0;
        char *text = strstr(p, "```text");
        char *end = text ? strstr(text + 7, "```") : 0;
        if (!end) break;
        for (char *q = text + 7; q < end;) {
            unsigned b;
            int used;
            if (sscanf(q, " %2x%n", &b, &used) != 1 || q + used > end) break;
            v->bytes[v->len++] = (uint8_t)b;
            q += used;
        }
        p = end;
    }
}

static const vector *find(const char *name) {
    for (int i = 0; i < n_vectors; i++)
        if (!strcmp(vectors[i].name, name)) return &vectors[i];
    printf("FAIL protocol.md has no golden vector \"%s\"\n", name);
    failures++;
    return 0;
}

// The vector through the firmware's receive path (COBS, CRC, version, length): the message, or false.
static bool receive(const vector *v, message *m) {
    memcpy(rx, v->bytes, v->len);
    rx_len = v->len;
    rx_pos = 0;
    uint16_t crc_before = link_crc_errors, other_before = link_other_errors;
    bool ok = link_receive(m);
    CHECK(ok, "link_receive refused it (crc errors +%u, other errors +%u)", link_crc_errors - crc_before,
          link_other_errors - other_before);
    CHECK(rx_pos == rx_len, "%d bytes left after the frame", rx_len - rx_pos);
    // link.c decodes into one buffer: keep this payload apart from the next message's (two at a time).
    static uint8_t kept[2][WIRE_MAX_PAYLOAD];
    static int which;
    if (ok) {
        which ^= 1;
        memcpy(kept[which], m->payload, m->len);
        m->payload = kept[which];
    }
    return ok;
}

// The expected type, seq and payload size of a named example.
static void expect_header(const message *m, uint8_t type, uint8_t seq, int len) {
    CHECK(m->type == type, "type 0x%02X, expected 0x%02X", m->type, type);
    CHECK(m->seq == seq, "seq %u, expected %u", m->seq, seq);
    if (len >= 0) CHECK(m->len == len, "payload %u bytes, expected %d", m->len, len);
}

// The last frame the firmware sent (tx), decoded with its own receive path.
static bool sent(message *m) {
    vector v = {.len = tx_len};
    memcpy(v.bytes, tx, tx_len);
    tx_len = 0;
    return receive(&v, m);
}

static void hex_diff(const uint8_t *a, const uint8_t *b, int n, int skip_from, int skip_to) {
    for (int i = 0; i < n; i++)
        if (a[i] != b[i] && (i < skip_from || i >= skip_to))
            CHECK(0, "wire byte %d is %02X, protocol.md has %02X", i, a[i], b[i]);
}

// ---- host examples: decoded by link.c, checked and taken apart by proto.c ----
static void host_examples(void) {
    message m;
    const vector *v;
    struct { const char *name; uint8_t type, seq; int len; } hdr[] = {
        {"hello", MSG_HELLO, 0, SIZE_HELLO}, {"hello-revision", MSG_HELLO, 0, SIZE_HELLO_REVISION},
        {"configure", MSG_CONFIGURE, 1, SIZE_CONFIGURE}, {"clock-request", MSG_CLOCK_REQUEST, 2, SIZE_CLOCK_REQUEST},
        {"frames", MSG_FRAMES, 3, SIZE_FRAMES_HEADER + 4}, {"start", MSG_START, 4, SIZE_START},
        {"stop-now", MSG_STOP, 5, SIZE_STOP}, {"heartbeat", MSG_HEARTBEAT, 6, SIZE_HEARTBEAT},
        {"replace", MSG_REPLACE, 7, SIZE_FRAMES_HEADER + 2}, {"limits-request", MSG_LIMITS_REQUEST, 7, SIZE_LIMITS_REQUEST},
    };
    for (unsigned i = 0; i < sizeof hdr / sizeof hdr[0]; i++) {
        current = hdr[i].name;
        if (!(v = find(current)) || !receive(v, &m)) continue;
        expect_header(&m, hdr[i].type, hdr[i].seq, hdr[i].len);
        memset(&got, 0, sizeof got);
        tx_len = 0;
        proto_handle(&m);
        message r;
        if (!sent(&r)) continue;
        if (!strcmp(current, "hello") || !strcmp(current, "hello-revision")) {
            bool ext = !strcmp(current, "hello-revision");
            CHECK(r.type == MSG_INFO, "reply 0x%02X, expected INFO", r.type);
            CHECK(r.len == SIZE_INFO_FIXED + r.payload[SIZE_INFO_FIXED - 1] + (ext ? 1 : 0), "INFO of %u bytes", r.len);
            if (ext) CHECK(r.payload[r.len - 1] == WIRE_REVISION, "INFO revision %u", r.payload[r.len - 1]);
        } else if (!strcmp(current, "configure")) {
            stream_config c = got.cfg;
            CHECK(got.call && !strcmp(got.call, "configure"), "play_configure not called");
            CHECK(c.frame_rate_hz == 250 && c.duty_format == FMT_U8 && c.failsafe_ms == 200 &&
                      c.lra_resonance_dhz == 0 && c.flags == 0 && c.report_every == 25,
                  "configure {%u, %u, %u, %u, %u, %u}, expected {250, 1, 200, 0, 0, 25}", c.frame_rate_hz,
                  c.duty_format, c.failsafe_ms, c.lra_resonance_dhz, c.flags, c.report_every);
            CHECK(r.type == MSG_STATUS, "reply 0x%02X, expected STATUS", r.type);
        } else if (!strcmp(current, "clock-request")) {
            CHECK(r.type == MSG_CLOCK && r.len == SIZE_CLOCK && le32(r.payload) == 0x01020304,
                  "reply 0x%02X of %u bytes, token 0x%08lX", r.type, r.len, (unsigned long)le32(r.payload));
        } else if (!strcmp(current, "frames")) {
            static const uint8_t want[] = {0, 1, 128, 255};
            CHECK(got.call && !strcmp(got.call, "frames") && got.first == 0 && got.format == FMT_U8 && got.n == 4 &&
                      !memcmp(got.values, want, 4),
                  "play_frames(%lu, %u, %u, %u %u %u %u)", (unsigned long)got.first, got.format, got.n,
                  got.values[0], got.values[1], got.values[2], got.values[3]);
        } else if (!strcmp(current, "start")) {
            CHECK(got.call && !strcmp(got.call, "start") && got.tb.anchor_index == 0 &&
                      got.tb.anchor_tick == 1000000 && got.tb.period_q32 == (uint64_t)4000 << 32,
                  "play_start(%lu, %llu, 0x%llX)", (unsigned long)got.tb.anchor_index,
                  (unsigned long long)got.tb.anchor_tick, (unsigned long long)got.tb.period_q32);
        } else if (!strcmp(current, "stop-now")) {
            CHECK(got.call && !strcmp(got.call, "stop") && got.stop_at == STOP_NOW, "play_stop(0x%08lX)",
                  (unsigned long)got.stop_at);
        } else if (!strcmp(current, "heartbeat")) {
            CHECK(r.type == MSG_STATUS && got.call == 0, "reply 0x%02X", r.type);
        } else if (!strcmp(current, "replace")) {  // this board does not take REPLACE (no capability bit 3)
            CHECK(r.type == MSG_NAK && r.payload[0] == NAK_UNKNOWN_TYPE && le32(r.payload + 3) == MSG_REPLACE,
                  "reply 0x%02X code %u", r.type, r.payload[0]);
        } else if (!strcmp(current, "limits-request")) {
            CHECK(r.type == MSG_LIMITS && r.len == SIZE_LIMITS, "reply 0x%02X of %u bytes", r.type, r.len);
        }
    }
}

// ---- board examples: decoded by link.c; made by reply.c from the example's values, compared byte for byte ----
static void compare_sent(const vector *v) {
    CHECK(tx_len == v->len, "firmware sent %d wire bytes, protocol.md has %d", tx_len, v->len);
    hex_diff(tx, v->bytes, tx_len < v->len ? tx_len : v->len, 0, 0);
    tx_len = 0;
}

static void board_examples(void) {
    message m;
    const vector *v;
    struct { const char *name; uint8_t type, seq; int len; } hdr[] = {
        {"info", MSG_INFO, 0, -1}, {"info-revision", MSG_INFO, 0, -1}, {"clock", MSG_CLOCK, 1, SIZE_CLOCK},
        {"status", MSG_STATUS, 2, SIZE_STATUS}, {"status-lost", MSG_STATUS, 2, SIZE_STATUS_LOST},
        {"nak", MSG_NAK, 3, SIZE_NAK}, {"played", MSG_PLAYED, 4, SIZE_PLAYED}, {"limits", MSG_LIMITS, 5, SIZE_LIMITS},
    };
    for (unsigned i = 0; i < sizeof hdr / sizeof hdr[0]; i++) {
        current = hdr[i].name;
        if ((v = find(current)) && receive(v, &m)) expect_header(&m, hdr[i].type, hdr[i].seq, hdr[i].len);
    }

    // reply.c's frames, in the examples' seq order (link.c numbers them 0, 1, 2, ...).
    tx_len = 0;
    current = "info";  // another board's INFO ("demo"): the layout, not the values
    reply_info(false);
    message r;
    if (sent(&r) && (v = find("info")) && receive(v, &m)) {
        CHECK(r.type == MSG_INFO && r.seq == 0, "type 0x%02X seq %u", r.type, r.seq);
        CHECK(m.len == SIZE_INFO_FIXED + m.payload[SIZE_INFO_FIXED - 1], "example INFO of %u bytes", m.len);
        CHECK(r.len == SIZE_INFO_FIXED + r.payload[SIZE_INFO_FIXED - 1], "INFO of %u bytes", r.len);
        CHECK(r.payload[0] == m.payload[0], "protocol version %u, example %u", r.payload[0], m.payload[0]);
        CHECK(!memcmp(r.payload + SIZE_INFO_FIXED, BOARD_NAME, sizeof BOARD_NAME - 1), "name not at byte %d",
              SIZE_INFO_FIXED);
    }
    tx_len = 0;
    current = "clock";
    reply_clock(0x01020304, 1234567);
    if ((v = find(current))) compare_sent(v);

    current = "status";  // this board's capacity is FRAME_CAPACITY, the example's 1024: `free` is skipped
    play_state = STATE_PLAYING;
    fill = 200;
    play_next_expected = 700;
    play_next_play = 500;
    play_underruns = play_late_frames = 0;
    play_duplicates = 1;
    link_crc_errors = 2;
    link_other_errors = 0;
    play_failsafe_trips = 0;
    level_now = 16384;
    reply_status(3, 3000000);
    if ((v = find(current)) && receive(v, &m) && sent(&r)) {
        CHECK(r.len == m.len, "STATUS of %u bytes, example %u", r.len, m.len);
        for (int k = 0; k < m.len && k < r.len; k++)
            if (k != 4 && k != 5)
                CHECK(r.payload[k] == m.payload[k], "payload byte %d is %02X, protocol.md has %02X", k, r.payload[k],
                      m.payload[k]);
        CHECK(le16(r.payload + 4) == FRAME_CAPACITY - 200, "free %u", le16(r.payload + 4));
    }
    current = "nak";
    reply_nak(NAK_GAP, 9, MSG_FRAMES, 100);
    if ((v = find(current))) compare_sent(v);
    current = "played";
    reply_played(0, 25, 0, 0, 0xBEEF, 1000000);
    if ((v = find(current))) compare_sent(v);
    current = "limits";  // the erm build's motor (3 V on 5 V, 50 ms overdrive, 500 ms recovery) is the example's
    reply_limits(0);
    if ((v = find(current))) compare_sent(v);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        printf("usage: golden_test PROTOCOL_MD\n");
        return 2;
    }
    read_vectors(argv[1]);
    current = "crc16";
    CHECK(crc16((const uint8_t *)"123456789", 9) == 0x29B1, "CRC of \"123456789\" is 0x%04X", crc16((const uint8_t *)"123456789", 9));
    board_examples();
    host_examples();
    if (failures) {
        printf("golden host test: %d failures (%d vectors read)\n", failures, n_vectors);
        return 1;
    }
    printf("golden host test: all passed (%d vectors through link.c, proto.c, reply.c)\n", n_vectors);
    return 0;
}
