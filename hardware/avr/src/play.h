// The stream: configuration, the frame window (selective repeat), the timebase, playback on the board
// clock through the output stage, PLAYED reports, STOP and the failsafe (protocol sections 3-7).
// SPDX-License-Identifier: Apache-2.0
#ifndef PLAY_H
#define PLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "timebase.h"

#include "wire_gen.h"  // STATE_*, FMT_*, NAK_*: generated from the Swift wire tables

typedef struct {
    uint16_t frame_rate_hz;
    uint8_t duty_format;
    uint16_t failsafe_ms;
    uint16_t lra_resonance_dhz;
    uint8_t flags;
    uint16_t report_every;
} stream_config;

// A refusal: NAK code and detail (code 0: accepted).
typedef struct {
    uint8_t code;
    uint32_t detail;
} refusal;

// What FRAMES produced besides its STATUS: NAK gap and/or NAK buffer_full, with their details.
typedef struct {
    bool gap, full;
    uint32_t gap_detail, full_detail;
} frames_result;

extern uint8_t play_state;
extern uint32_t play_next_expected, play_next_play;
extern uint32_t play_underruns, play_late_frames, play_duplicates;
extern uint16_t play_failsafe_trips;

uint16_t play_fill(void);

// A message that passed every framing and payload check arrived at board tick `arrived` (low 32 bits):
// feeds the failsafe.
void play_valid_message(uint32_t arrived);

refusal play_configure(const stream_config *c);
refusal play_frames(uint32_t first, uint8_t format, uint8_t n, const uint8_t *values, frames_result *r);
refusal play_start(const timebase *tb);
void play_stop(uint32_t at_index);

// Main loop, every pass: accounts for what the output stage has played, finishes a stop or a failsafe,
// and queues the next output changes a few milliseconds ahead (`now`: a message was just handled).
void play_service(bool now);

#endif
