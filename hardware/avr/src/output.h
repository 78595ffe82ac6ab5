// The output stage: a short queue of timed drive changes that the Timer1 overflow interrupt hands to the
// PWM hardware, one PWM period (800 ticks) ahead, so each takes effect exactly at a period start
// (BOTTOM). The main loop fills it a few milliseconds ahead (play.c); the interrupt also runs the
// failsafe and the stop, so the motor goes off on time even while the main loop is busy.
// SPDX-License-Identifier: Apache-2.0
#ifndef OUTPUT_H
#define OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

enum { EV_FRAME = 1, EV_CARRIER = 2, EV_END = 3, EV_LIMIT = 4 };  // EV_LIMIT: the overdrive budget ran out

typedef struct {
    uint32_t due;    // low 32 bits of the tick at or after which it should take effect
    uint32_t at;     // written by the interrupt: low 32 bits of the BOTTOM tick at which it took effect
    int16_t level;   // drive level after this event (STATUS output): > 0 on OC1A, < 0 on OC1B
    uint16_t high;   // its PWM high time in cycles per period (pwm_high_cycles of |level|)
    uint16_t raw;    // EV_FRAME: the frame's raw value, for PLAYED
    uint8_t kind;
} out_event;

#define OUT_QUEUE 8u  // a power of two; 4 ms of lead holds at most 5 frames and 3 LRA carrier flips

// Main loop side. Order of an event's life: out_slot + out_push (queued), the interrupt preloads it
// and marks it at its BOTTOM (taken effect), out_oldest + out_retire (main loop accounts for it).
bool out_full(void);
out_event *out_slot(void);  // the next free entry (fill it, then out_push)
void out_push(void);
out_event *out_oldest(void);  // the oldest entry that has taken effect, or 0
void out_retire(void);

// Stop: asks the interrupt to zero the output at the next BOTTOM (it takes effect one period later);
// out_wait_off waits for that and returns the tick it took effect. Queued entries that had not taken
// effect are dropped (after the caller retired the ones that had).
void out_request_off(void);
bool out_off_done(void);
uint64_t out_off_tick(void);
void out_drop_pending(void);
void out_resume(void);  // a new playback may queue events again

// Failsafe, checked by the interrupt every PWM period while armed.
void out_failsafe_arm(uint32_t deadline);
void out_failsafe_disarm(void);
void out_failsafe_feed(uint32_t deadline);  // a valid message arrived: new deadline
bool out_failsafe_fired(void);              // the interrupt turned the output off for the failsafe

int16_t out_level_now(void);  // drive level at the output now

// For the main loop's sleep: PWM periods begun so far (wraps), and whether the output stage has news
// (changes that took effect, or the failsafe fired).
extern volatile uint8_t out_bottoms;
bool out_attention(void);

#endif
