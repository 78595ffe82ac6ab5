// The output stage (see output.h), run at every BOTTOM by the Timer1 overflow interrupt when work is due
// (bottom_isr.S calls output_bottom once the clock reaches out_work_at).
//
// Queue indices are free-running bytes: the main loop owns `head` (entries queued) and `tail` (entries
// retired); the interrupt owns `next` (entries handed to the compare registers) and `done` (entries that
// have taken effect). tail <= done <= next <= head, each moved by its owner only.
//
// At a BOTTOM b, output_bottom (1) marks what it preloaded one period ago as taken effect at b, (2) turns
// the output off if the main loop asked or the failsafe deadline has passed, else (3) preloads the compare
// registers with the last entry due by b + 800, which the hardware copies in at that next BOTTOM, and
// (4) sets out_work_at, the next BOTTOM at which it has something to do. Only this code writes the
// compare registers while the timer runs, so there is no race on the timer's shared TEMP register.
// The main loop may only move out_work_at earlier (out_push, out_request_off, out_failsafe_arm); a call
// that finds nothing to do just sets it again.
// SPDX-License-Identifier: Apache-2.0
#include <avr/interrupt.h>
#include <avr/io.h>

#include "clock.h"
#include "output.h"
#include "pwm.h"

#define MASK (OUT_QUEUE - 1)
#define barrier() __asm__ __volatile__("" ::: "memory")
#define FAR (1UL << 30)  // "nothing to do for a long while": out_work_at this far ahead

enum { OFF_NO = 0, OFF_REQUESTED, OFF_WRITTEN, OFF_DONE };

static out_event q[OUT_QUEUE];
static volatile uint8_t q_head, q_next, q_done, q_tail;
static volatile int16_t level_now;
static volatile uint8_t off_state;
static volatile uint32_t off_at;
static volatile uint8_t fs_armed, fs_fired;
static volatile uint32_t fs_deadline;
volatile uint32_t out_work_at;  // read by bottom_isr.S
volatile uint8_t out_bottoms;   // counted by bottom_isr.S

static uint32_t earlier(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0 ? a : b; }

void output_bottom(uint32_t b) __attribute__((used));
void output_bottom(uint32_t b) {
    uint8_t d = q_done, n = q_next;
    barrier();
    while (d != n) {
        out_event *e = &q[d & MASK];
        e->at = b;
        level_now = e->level;
        d++;
    }
    q_done = d;

    uint32_t next_bottom = b + PWM_PERIOD;
    uint8_t off = off_state;
    if (off == OFF_WRITTEN) {  // the zero written one period ago is at the pins from this BOTTOM on
        off_state = OFF_DONE;
        off_at = b;
        level_now = 0;
        out_work_at = b + FAR;
        return;
    }
    if (off == OFF_DONE) {
        out_work_at = b + FAR;
        return;
    }
    uint8_t failsafe = fs_armed && (int32_t)(b - fs_deadline) > 0;
    if (off == OFF_REQUESTED || failsafe) {
        if (off != OFF_REQUESTED) fs_fired = 1;
        fs_armed = 0;
        OCR1A = PWM_OCR_OFF;
        OCR1B = PWM_OCR_OFF;
        off_state = OFF_WRITTEN;
        out_work_at = next_bottom;
        return;
    }

    uint8_t h = q_head;
    barrier();
    uint32_t work = b + FAR;
    if (n != h && (int32_t)(q[n & MASK].due - next_bottom) <= 0) {
        do n++; while (n != h && (int32_t)(q[n & MASK].due - next_bottom) <= 0);
        const out_event *e = &q[(uint8_t)(n - 1) & MASK];  // the last one due: the level to output
        uint16_t on = PWM_TOP - e->high;  // inverting outputs: high from the compare match to TOP
        OCR1A = e->level > 0 ? on : PWM_OCR_OFF;
        OCR1B = e->level < 0 ? on : PWM_OCR_OFF;
        q_next = n;
        work = next_bottom;  // mark it at the next BOTTOM
    } else if (n != h) {
        work = q[n & MASK].due - PWM_PERIOD;  // the BOTTOM before it is due
    }
    if (fs_armed) work = earlier(work, fs_deadline + 1);
    out_work_at = work;
}

bool out_full(void) { return (uint8_t)(q_head - q_tail) >= OUT_QUEUE; }

out_event *out_slot(void) { return &q[q_head & MASK]; }

void out_push(void) {
    uint32_t work = q[q_head & MASK].due - PWM_PERIOD;
    barrier();  // the entry is complete before the interrupt can see it
    cli();
    q_head = q_head + 1;
    out_work_at = earlier(out_work_at, work);
    sei();
}

out_event *out_oldest(void) {
    uint8_t t = q_tail;
    if (t == q_done) return 0;
    barrier();
    return &q[t & MASK];
}

void out_retire(void) { q_tail = q_tail + 1; }

void out_request_off(void) {
    cli();
    if (off_state == OFF_NO) {
        off_state = OFF_REQUESTED;
        out_work_at = clock_base_lo;  // at the next BOTTOM
    }
    sei();
}

bool out_off_done(void) { return off_state == OFF_DONE; }

bool out_attention(void) { return q_tail != q_done || fs_fired; }

uint64_t out_off_tick(void) {
    uint64_t now = clock_now();
    cli();
    uint32_t at = off_at;
    sei();
    return clock_widen(now, at);
}

void out_drop_pending(void) {
    cli();
    q_head = q_next;  // entries queued but never preloaded: they will not play
    sei();
}

void out_resume(void) {
    cli();
    off_state = OFF_NO;
    fs_fired = 0;
    out_work_at = clock_base_lo;  // look at the queue at the next BOTTOM
    sei();
}

void out_failsafe_arm(uint32_t deadline) {
    cli();
    fs_deadline = deadline;
    fs_armed = 1;
    fs_fired = 0;
    out_work_at = earlier(out_work_at, deadline + 1);
    sei();
}

void out_failsafe_disarm(void) { fs_armed = 0; }

void out_failsafe_feed(uint32_t deadline) {
    cli();
    fs_deadline = deadline;
    sei();
}

bool out_failsafe_fired(void) { return fs_fired; }

int16_t out_level_now(void) {
    cli();
    int16_t v = level_now;
    sei();
    return v;
}
