// Sampling the accelerometer (see sense.h).
//
// Timing. Sample k of a SENSE is due at start + k x interval (board ticks, interval = round(16 MHz /
// rate)). Timer2 counts at clk/32 in CTC mode as a one-shot alarm (TCNT2 = 0, OCR2A = counts - 1; up
// to 255 counts, 8160 ticks; a longer wait re-arms on the way), set to fire EARLY ticks before the next
// due tick, about the handler's latency: the read starts near the due tick, early or late (measured by
// test/sense_sim_test.py), and is dropped if it would be later than the bound (interval / 8), as is
// one the ring has no room for; both are counted in `lost`. Both timers count the one CPU clock, so the
// schedule cannot drift from the board clock. The handler masks its own interrupt and runs with
// interrupts enabled: the PWM period interrupt and the UART preempt it, so it never holds up the
// output, and the clock's overflow count (clock.c) never waits behind it: Timer2's compare outranks
// Timer1's overflow, and a clock read is exact only while an uncounted overflow is under 400 cycles old
// (clock.c, step 3); a handler blocking for its 300-500 cycles broke that (measured: reads judged
// 750 ticks late, every batch dropped). The price is stack: the overflow interrupt's output path nests
// on this handler on top of the main loop (sense.h).
//
// Batches. The handler stores samples in a 32-byte ring; a full batch is entered in a queue of 2 with
// its first sample's number and the samples lost before it. A dropped sample discards the part-filled
// batch (its samples count as lost): a batch is always `batch` consecutive samples. The main loop sends
// each queued batch as SAMPLES (first_tick = start + number x interval) or, when the transmit ring is
// full, drops it and counts it in the next one's `lost`.
// SPDX-License-Identifier: Apache-2.0
#include <avr/interrupt.h>
#include <avr/io.h>

#include "accel.h"
#include "board.h"
#include "clock.h"
#include "link.h"
#include "reply.h"
#include "sense.h"
#include "spi.h"

#define RING 32u
_Static_assert(RING >= SENSE_BATCH_BYTES + 8, "the ring holds a batch and 1.25 ms of one axis at 3200/s");
_Static_assert(SIZE_SAMPLES_HEADER + SENSE_BATCH_BYTES <= LINK_TX_MAX_PAYLOAD && SIZE_SENSOR <= LINK_TX_MAX_PAYLOAD,
               "SAMPLES or SENSOR does not fit the link's transmit buffer");
#define QUEUE 2u  // a power of two
#define SILENCE_TICKS (1000UL * (CLOCK_HZ / 1000))
// The alarm is set for EARLY ticks before the due tick, the handler's way from the match to its chip
// select (entry, saving registers, one clock read): with 128, reads came 99-308 ticks after the due
// tick in simavr (3200/s); with 224, -13 ... +119. (An earlier version also waited on the clock for
// the due tick: never early, but three clock reads a sample, and the CPU time delayed frames while
// playing 1000 frames/s.)
#define EARLY 224
#define ARM_MAX 250u  // Timer2 counts ahead at most (8000 ticks); a longer wait re-arms on the way

static struct {
    // Set by SENSE with the interrupt off; read by both.
    uint16_t rate;
    uint8_t axes, batch, need, first, last;  // need: bytes per sample; first/last: axis span read
    uint32_t interval, slack;                // slack: interval / 8
    uint64_t start;
    // The interrupt's.
    uint32_t due, index, batch_first;
    uint8_t fill, w, w_commit;
    uint16_t lost_acc;
    volatile uint8_t q_head;
    // Both (the main loop changes it with interrupts off).
    volatile uint8_t held;
    // The main loop's.
    uint8_t r;
    volatile uint8_t q_tail;
    uint16_t seq, main_lost;
    uint32_t last_valid;
} s;
static uint8_t ring[RING];
static struct {
    uint32_t first;
    uint8_t lost;
} queue[QUEUE];

static void timer_off(void) {
    TIMSK2 = 0;
    TCCR2B = 0;
    TIFR2 = _BV(OCF2A);
}

// Fires the compare interrupt `counts` Timer2 counts from now, less the prescaler's phase: after 32 x
// counts - 31 ... 32 x counts ticks (counts 2 ... 255). CTC mode, restarted from 0: a one-shot alarm.
static void arm(uint8_t counts) {
    TCNT2 = 0;
    OCR2A = counts - 1;
    TIFR2 = _BV(OCF2A);
    TIMSK2 = _BV(OCIE2A);
}

static void drop(void) {
    uint16_t n = s.lost_acc + s.fill + 1;
    s.lost_acc = n;
    s.held -= (uint8_t)(s.fill * s.need);
    s.w = s.w_commit;
    s.fill = 0;
}

// Reads the sample due `d` ticks from now (negative: past), unless that is already later than the
// bound. Called with interrupts off: the clock read, the check and the chip select (the moment the part
// latches its data registers) are one step.
static void take(int32_t d) {
    if (s.fill == 0) s.batch_first = s.index;
    if (s.held + s.need > RING || -d > (int32_t)s.slack) {
        sei();
        drop();
        return;
    }
    spi_select();
    sei();
    static uint8_t v[6];  // static: off the stack the nested interrupts share (this cannot re-enter)
    uint8_t n = accel_read(s.first, s.last, s.axes, v);
    for (uint8_t i = 0; i < n; i++) {
        ring[s.w] = v[i];
        if (++s.w == RING) s.w = 0;
    }
    s.held += n;
    if (++s.fill < s.batch) return;
    uint8_t h = s.q_head;
    if ((uint8_t)(h - s.q_tail) == QUEUE) {  // the main loop is that far behind: this batch is lost
        s.lost_acc += s.batch;
        s.held -= n * s.batch;
        s.w = s.w_commit;
        s.fill = 0;
        return;
    }
    queue[h & (QUEUE - 1)].first = s.batch_first;
    queue[h & (QUEUE - 1)].lost = s.lost_acc > 255 ? 255 : (uint8_t)s.lost_acc;
    s.lost_acc = 0;
    s.w_commit = s.w;
    s.fill = 0;
    s.q_head = h + 1;
}

ISR(TIMER2_COMPA_vect) {
    TIMSK2 = 0;  // CTC goes on matching: no second entry before arm() below
    sei();
    for (;;) {
        // Re-armed with interrupts off, up to the return: an interrupt between arm() and the return
        // could outlast a short alarm and enter this handler again, on top of itself.
        cli();
        int32_t d = (int32_t)(s.due - clock_now_lo());
        if (d >= EARLY + 64) {
            uint32_t c = ((uint32_t)d - EARLY) >> 5;
            arm(c > ARM_MAX ? ARM_MAX : (uint8_t)c);
            return;
        }
        take(d);
        s.due += s.interval;
        s.index++;
    }
}

static void stop(void) {
    timer_off();
    s.rate = 0;
    s.axes = s.batch = 0;
    s.interval = 0;
}

static void reply_sensor(void) {
    uint8_t *p = link_payload;
    put16(p, s.rate);
    p[2] = s.axes;
    p[3] = s.batch;
    put32(p + 4, s.interval);
    put16(p + 8, SENSE_MAX_RATE_HZ);
    put16(p + 10, ADXL_SCALE_UG);
    p[12] = ADXL_RANGE_G;
    p[13] = 1;  // part: ADXL345
    put16(p + 14, ADXL_ODR_HZ);
    link_send(MSG_SENSOR, SIZE_SENSOR);
}

void sense_handle(uint8_t seq, const uint8_t *p) {
    uint16_t rate = le16(p);
    uint8_t axes = p[2], batch = p[3];
    if (rate) {
        uint8_t k = (axes & 1) + (axes >> 1 & 1) + (axes >> 2 & 1);
        if (rate > SENSE_MAX_RATE_HZ || axes == 0 || axes > 7 || batch == 0 ||
            batch > (WIRE_MAX_PAYLOAD - SIZE_SAMPLES_HEADER) / (2 * k) || batch * 2u * k > SENSE_BATCH_BYTES) {
            reply_nak(NAK_BAD_CONFIG, seq, MSG_SENSE, 0);  // nothing changes
            return;
        }
        stop();
        s.rate = rate;
        s.axes = axes;
        s.batch = batch;
        s.need = 2 * k;
        s.first = axes & 1 ? 0 : axes & 2 ? 1 : 2;
        s.last = axes & 4 ? 2 : axes & 2 ? 1 : 0;
        s.interval = (CLOCK_HZ + rate / 2) / rate;
        s.slack = s.interval / 8;
        s.seq = s.main_lost = s.lost_acc = 0;
        s.fill = s.w = s.w_commit = s.r = s.held = 0;
        s.q_head = s.q_tail = 0;
        s.index = 0;
        // The first sample 100 us from now: the interrupt is armed well before it.
        s.start = clock_now() + CLOCK_HZ / 10000;
        s.due = (uint32_t)s.start;
        TCCR2A = _BV(WGM21);  // CTC
        TCCR2B = _BV(CS21) | _BV(CS20);  // clk/32
        arm(2);
    } else {
        stop();
    }
    reply_sensor();
}

void sense_host_alive(uint32_t arrived) { s.last_valid = arrived; }

bool sense_attention(void) { return s.q_head != s.q_tail; }

void sense_service(void) {
    if (!s.rate) return;
    if ((int32_t)(clock_now_lo() - s.last_valid) > (int32_t)SILENCE_TICKS) {
        stop();  // the host is gone
        return;
    }
    while (s.q_tail != s.q_head) {
        uint8_t t = s.q_tail & (QUEUE - 1);
        uint8_t bytes = s.batch * s.need;
        uint8_t *p = link_payload;
        uint16_t lost = s.main_lost + queue[t].lost;
        put16(p, s.seq);
        p[2] = s.batch;
        p[3] = lost > 255 ? 255 : (uint8_t)lost;
        put64(p + 4, s.start + (uint64_t)queue[t].first * s.interval);
        uint8_t r = s.r;
        for (uint8_t i = 0; i < bytes; i++) {
            p[SIZE_SAMPLES_HEADER + i] = ring[r];
            if (++r == RING) r = 0;
        }
        s.r = r;
        cli();
        s.held -= bytes;
        s.q_tail++;
        sei();
        if (link_send(MSG_SAMPLES, SIZE_SAMPLES_HEADER + bytes)) {
            s.seq++;
            s.main_lost = 0;
        } else {
            s.main_lost = lost + s.batch;
        }
    }
}

bool sense_available(void) { return accel_present; }

void sense_init(void) { accel_init(); }
