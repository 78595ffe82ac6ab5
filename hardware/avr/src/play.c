// The stream (see play.h). The main loop queues each output change (a frame, an LRA carrier flip, or
// the end of a deferred STOP) with its due tick up to LEAD_TICKS ahead; the Timer1 interrupt applies it
// at the first PWM period start at or after that tick (output.c) and stamps that tick, which is what
// PLAYED reports. Handing a frame to the output stage is what "played" means for next_play and for
// late copies of it (protocol: a board may hand a frame to its PWM hardware ahead of its tick).
// SPDX-License-Identifier: Apache-2.0
#include <util/delay.h>

#include "board.h"
#include "clock.h"
#include "crc16.h"
#include "fault.h"
#include "frames.h"
#include "limit.h"
#include "link.h"
#include "output.h"
#include "play.h"
#include "pwm.h"
#include "reply.h"

// How far ahead of its tick a change is queued: longer than the main loop's slowest step (a full
// FRAMES message, about 1.2 ms, plus replies), shorter than the 8-entry queue's worth of frames at 1 kHz.
#define LEAD_TICKS (4UL * CLOCK_HZ / 1000)
#define TICKS_PER_MS (CLOCK_HZ / 1000)

uint8_t play_state = STATE_IDLE;
uint32_t play_next_expected, play_next_play;
uint32_t play_underruns, play_late_frames, play_duplicates;
uint16_t play_failsafe_trips;

static stream_config cfg;
static uint32_t failsafe_ticks;   // cfg.failsafe_ms in ticks
static uint32_t last_valid;       // low 32 bits of the tick of the last valid message
static timebase frames_tb;
static uint64_t next_due;         // due tick of play_next_play under frames_tb
static bool next_due_known;
static bool stop_pending;         // a deferred STOP at stop_at
static uint32_t stop_at;
static bool ending;               // its end is queued: nothing more to queue
static uint32_t retire_index;     // index of the next frame the output stage reports as played
static int16_t envelope;          // level of the current frame

#if MOTOR_KIND == MOTOR_LRA
static struct {  // LRA carrier: polarity flips every half resonance period
    bool on;
    timebase tb;
    uint32_t k;
    uint64_t next;
    int8_t polarity;
} carrier;
#endif

static struct {  // the PLAYED report being accumulated
    uint32_t first_index;
    uint16_t count, late_count;
    uint32_t max_late;
    uint16_t crc;
    uint64_t first_tick;
} tally;

static bool playing(void) { return play_state == STATE_ARMED || play_state == STATE_PLAYING; }

uint16_t play_fill(void) {
    int32_t d = index_distance(play_next_expected, play_next_play);
    return d > 0 ? (uint16_t)d : 0;
}

void play_valid_message(uint32_t arrived) {
    last_valid = arrived;
    out_failsafe_feed(last_valid + failsafe_ticks);
}

// Moves next_expected past every stored frame (never before next_play, never past the window).
static void advance_expected(void) {
    if (index_distance(play_next_expected, play_next_play) < 0) play_next_expected = play_next_play;
    while (index_distance(play_next_expected, play_next_play) < (int32_t)FRAME_CAPACITY &&
           frames_has(play_next_expected))
        play_next_expected++;
}

// Sends the PLAYED report so far. If the transmit ring has no room, the tally goes on and the next
// report covers more frames (output never waits for the serial line); a report that must end the
// stream's accounting (`final`) is then lost.
static void send_played(bool final) {
    if (tally.count == 0) return;
    if (reply_played(tally.first_index, tally.count, tally.late_count, tally.max_late, tally.crc,
                     tally.first_tick) || final || tally.count == 0xFFFF)
        tally.count = 0;
}

static void tally_frame(uint32_t index, const out_event *e, uint64_t at) {
    if (tally.count == 0) {
        tally.first_index = index;
        tally.first_tick = at;
        tally.late_count = 0;
        tally.max_late = 0;
        tally.crc = CRC16_INIT;
    }
    tally.count++;
    // Timer 1 takes a new duty only at a PWM period's start (BOTTOM), so a frame due between two takes
    // effect at the next one, 0-50 µs on: that is its output time, not lateness (protocol.md, PLAYED). Late
    // is after the first BOTTOM at or after its due tick.
    int32_t late = (int32_t)(e->at - e->due);
    if (late >= (int32_t)PWM_PERIOD) {
        tally.late_count++;
        if ((uint32_t)late > tally.max_late) tally.max_late = (uint32_t)late;
    }
    tally.crc = crc16_byte(tally.crc, (uint8_t)e->raw);
    tally.crc = crc16_byte(tally.crc, (uint8_t)(e->raw >> 8));
    if (cfg.report_every && tally.count >= cfg.report_every) send_played(false);
}

// Forget the stream's frames and position (STOP, CONFIGURE, failsafe); the output is already off.
static void reset_stream(void) {
    frames_clear_all();
    play_next_expected = 0;
    play_next_play = 0;
    next_due_known = false;
    stop_pending = false;
    ending = false;
#if MOTOR_KIND == MOTOR_LRA
    carrier.on = false;
#endif
    envelope = 0;
    out_failsafe_disarm();
}

static void end_playback(uint8_t state, uint64_t off_tick, bool announce) {
    out_drop_pending();
    limit_apply(0, off_tick);
    send_played(true);
    reset_stream();
    play_state = state;
    if (announce) reply_status(0, off_tick);
}

static void failsafe_end(void);

// Accounts for every queued change that has taken effect. Returns false if that ended playback.
static bool retire(void) {
    out_event *e;
    uint64_t now = clock_now();
    while ((e = out_oldest())) {
        uint64_t at = clock_widen(now, e->at);
        uint8_t kind = e->kind;
        if (kind == EV_FRAME) tally_frame(retire_index++, e, at);
        out_retire();
        if (kind == EV_END) {  // a deferred STOP: the frame at stop_at would be due now
            end_playback(STATE_CONFIGURED, at, true);
            return false;
        }
    }
    return true;
}

// Turns the output off at the next PWM period and waits for it (at most 100 us). Returns the tick the
// output went to 0, after accounting for what played before it. The wait ends on the Timer1 interrupt:
// if that has stopped (a corrupted TIMSK1), the compare registers keep the last duty, so after 1000
// rounds of 1 us (about 2.5 ms with the loop and the UART interrupt; 25 periods) the fault path forces
// the outputs low and restarts. It does not feed the watchdog.
static uint64_t halt_output(void) {
    out_request_off();
    for (uint16_t us = 0; !out_off_done(); us++) {
        if (us >= 1000) fault_restart();
        _delay_us(1);
    }
    retire();
    return out_off_tick();
}

// The failsafe fired in the interrupt (output.c) and the output is off.
static void failsafe_end(void) {
    if (!retire() || !playing()) {  // playback had already ended by itself: nothing to report
        out_resume();
        return;
    }
    uint64_t off = out_off_tick();
    play_failsafe_trips++;
    cfg.frame_rate_hz = 0;  // configuration forgotten: only CONFIGURE leaves the failsafe state
    end_playback(STATE_FAILSAFE, off, true);
}

static int16_t level_of(uint16_t raw) {
    switch (cfg.duty_format) {
    case FMT_U8: return (int16_t)((uint32_t)raw * 32767u / 255u);
    case FMT_U16: return (int16_t)(raw >> 1);
    default: return (int16_t)raw;
    }
}

// The drive level for the current envelope and carrier polarity (protocol section 5).
static int16_t drive_level(void) {
    int16_t level = envelope;
    bool reverse_ok = (CAPABILITIES & CAP_REVERSE) && (cfg.flags & CONFIGURE_FLAG_ALLOW_REVERSE);
    if (level < 0 && !reverse_ok) level = 0;
#if MOTOR_KIND == MOTOR_LRA
    if (carrier.on) level = level < 0 ? 0 : level * carrier.polarity;
#endif
    return level;
}

static void queue_change(uint8_t kind, uint64_t due, uint16_t raw, uint64_t now) {
    out_event *e = out_slot();
    // A tick long past is queued as "now - 2^30" so that 32-bit comparisons stay valid.
    if (due + (1UL << 30) < now) due = now - (1UL << 30);
    e->due = (uint32_t)due;
    e->kind = kind;
    e->raw = raw;
    // The ceiling's budget counts from when the change reaches the pin: the first PWM period start at or
    // after its due tick (or after now, for a change queued late).
    uint64_t at = due > now ? due : now;
    at = (at + PWM_TOP) / PWM_PERIOD * PWM_PERIOD;
    int16_t level = limit_apply(kind == EV_END ? 0 : drive_level(), at);
    e->level = level;
    e->high = pwm_high_cycles(level < 0 ? (uint16_t)-level : (uint16_t)level);
    out_push();
}

static void queue_ahead(void) {
    if (!playing() || ending) return;
    uint64_t now = clock_now();
    uint64_t horizon = now + LEAD_TICKS;
    while (!out_full()) {
        if (!next_due_known) {
            next_due = timebase_due(&frames_tb, play_next_play);
            next_due_known = true;
        }
        uint64_t limit_at;  // the overdrive budget runs out before the next change: drop to the ceiling
        if (limit_deadline(&limit_at) && limit_at < next_due
#if MOTOR_KIND == MOTOR_LRA
            && !(carrier.on && carrier.next < limit_at)
#endif
        ) {
            if (limit_at > horizon) return;
            queue_change(EV_LIMIT, limit_at, 0, now);
            continue;
        }
#if MOTOR_KIND == MOTOR_LRA
        if (carrier.on && carrier.next < next_due) {
            if (carrier.next > horizon) return;
            carrier.polarity = -carrier.polarity;
            queue_change(EV_CARRIER, carrier.next, 0, now);
            carrier.next = timebase_due(&carrier.tb, ++carrier.k);
            continue;
        }
#endif
        if (next_due > horizon) return;
        if (stop_pending && stop_at == play_next_play) {
            queue_change(EV_END, next_due, 0, now);
            ending = true;
            return;
        }
        bool have = frames_has(play_next_play);
        if (!have && next_due > now) return;  // it may still arrive in time
        uint16_t raw = 0;
        if (have) {
            raw = frames_get(play_next_play);
            frames_clear(play_next_play);
        } else {
            play_underruns++;  // its tick has come without it: output 0
        }
        envelope = level_of(raw);
        queue_change(EV_FRAME, next_due, raw, now);
        play_state = STATE_PLAYING;  // the first frame (or its underrun) is handed to the output
        play_next_play++;
        next_due_known = false;
        advance_expected();
    }
}

void play_service(bool now) {
    static uint8_t queued_at;  // out_bottoms when we last queued ahead
    if (out_failsafe_fired() && out_off_done()) failsafe_end();
    if (out_oldest()) retire();  // (checked here: retire's prologue alone costs 100 cycles)
    // Queue ahead every 16 PWM periods (0.8 ms, well inside LEAD_TICKS), or at once when a message may
    // have changed the stream; not on every received byte.
    if (!now && (uint8_t)(out_bottoms - queued_at) < 16) return;
    queued_at = out_bottoms;
    queue_ahead();
}

refusal play_configure(const stream_config *c) {
    refusal r = {0, 0};
    if (c->duty_format < FMT_U8 || c->duty_format > FMT_I16) {
        r.code = NAK_BAD_MESSAGE;
        r.detail = c->duty_format;
    } else if (c->frame_rate_hz < MIN_FRAME_RATE || c->frame_rate_hz > MAX_FRAME_RATE) {
        r.code = NAK_BAD_CONFIG;
        r.detail = 1;
    } else if (c->failsafe_ms < 20 || c->failsafe_ms > 10000) {
        r.code = NAK_BAD_CONFIG;
        r.detail = 3;
    }
    if (r.code) return r;  // a refused CONFIGURE changes nothing
    if (playing()) {
        uint64_t off = halt_output();
        if (out_failsafe_fired()) failsafe_end();
        else end_playback(STATE_CONFIGURED, off, false);
    }
    cfg = *c;
    failsafe_ticks = (uint32_t)c->failsafe_ms * TICKS_PER_MS;
    reset_stream();
    play_underruns = play_late_frames = play_duplicates = 0;
    play_state = STATE_CONFIGURED;
    return r;
}

refusal play_frames(uint32_t first, uint8_t format, uint8_t n, const uint8_t *values, frames_result *res) {
    refusal r = {0, 0};
    res->gap = res->full = false;
    if (play_state != STATE_CONFIGURED && !playing()) {
        r.code = NAK_NOT_CONFIGURED;
        return r;
    }
    if (format != cfg.duty_format) {
        r.code = NAK_BAD_MESSAGE;
        r.detail = format;
        return r;
    }
    bool skipped = index_distance(first, play_next_expected) > 0;
    for (uint8_t k = 0; k < n; k++) {
        uint32_t index = first + k;
        int32_t ahead = index_distance(index, play_next_play);
        if (ahead < 0) {
            play_late_frames++;  // already played (or handed to the output stage)
        } else if (ahead >= (int32_t)FRAME_CAPACITY) {
            advance_expected();  // out of the window: NAK and drop the rest
            res->full = true;
            res->full_detail = play_next_expected;
            break;
        } else if (frames_has(index)) {
            play_duplicates++;
        } else {
            frames_put(index, format == FMT_U8 ? values[k] : le16(values + 2u * k));
        }
    }
    advance_expected();
    if (skipped && index_distance(first, play_next_expected) > 0) {
        res->gap = true;  // a hole remains before this message: name it
        res->gap_detail = play_next_expected;
    }
    return r;
}

refusal play_start(const timebase *tb) {
    refusal r = {0, 0};
    if (play_state != STATE_CONFIGURED && !playing()) {
        r.code = NAK_NOT_CONFIGURED;
        return r;
    }
    if ((tb->period_q32 >> 32) == 0) {
        r.code = NAK_BAD_MESSAGE;  // a period below one tick
        return r;
    }
    frames_tb = *tb;
    next_due_known = false;
    if (play_state == STATE_CONFIGURED) {  // arm: a later START only re-times the stream
        play_state = STATE_ARMED;
        retire_index = play_next_play;
        tally.count = 0;
        out_resume();
        out_failsafe_arm(last_valid + failsafe_ticks);
#if MOTOR_KIND == MOTOR_LRA
        uint32_t dhz = cfg.lra_resonance_dhz ? cfg.lra_resonance_dhz : LRA_DEFAULT_DHZ;
        carrier.tb.anchor_index = 0;
        carrier.tb.anchor_tick = timebase_due(tb, play_next_play);
        carrier.tb.period_q32 = ((uint64_t)CLOCK_HZ * 10 << 32) / (2 * dhz);  // half period, 32.32
        carrier.k = 1;
        carrier.next = timebase_due(&carrier.tb, 1);
        carrier.polarity = 1;
        carrier.on = true;
#endif
    }
    return r;
}

void play_stop(uint32_t at_index) {
    if (playing()) {
        if (at_index == STOP_NOW || index_distance(at_index, play_next_play) < 0) {
            uint64_t off = halt_output();
            if (out_failsafe_fired()) failsafe_end();
            else if (playing()) end_playback(STATE_CONFIGURED, off, false);
        } else if (!ending) {
            stop_pending = true;
            stop_at = at_index;
        }
    } else if (play_state == STATE_CONFIGURED) {
        reset_stream();  // buffered frames are dropped; the configuration stays
    }
    // idle or failsafe: nothing changes
}
