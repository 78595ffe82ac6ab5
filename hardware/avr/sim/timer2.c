// Timer2 (see timer2.h).
//
// Why a model: simavr 1.6's Timer2 schedules its compare from its own period bookkeeping, which a write
// to TCNT2 or OCR2A while running does not follow as the datasheet says: in normal mode a new OCR2A
// often took effect only after the next overflow (every third alarm of the firmware was missed), and
// in CTC mode after TCNT2 = 0 and a new OCR2A the interrupt came about 400 cycles after the datasheet's
// time. So this file keeps simavr's Timer2 stopped and computes the counter itself:
//
//  - The prescaler runs from the cycle the clock select became non-zero; the counter steps at every
//    N-th cycle after that (N = 1, 8, 32, 64, 128, 256, 1024 by CS22:0).
//  - A TCNT2 write sets the count; the next step is the prescaler's next edge (its phase is kept).
//  - Normal mode (WGM 0): the count wraps 255 -> 0. CTC (WGM 2): it clears after OCR2A. Either way
//    OCF2A is set at the step after the count equals OCR2A (datasheet figures "Timer/Counter timing
//    diagram, setting of OCF2x" and "clear timer on compare match mode"), and the interrupt raised
//    through simavr's vector, which also keeps the flag in TIFR2 and its write-one-to-clear.
// SPDX-License-Identifier: Apache-2.0
#include <simavr/avr_timer.h>
#include <simavr/sim_cycle_timers.h>
#include <simavr/sim_interrupts.h>
#include <simavr/sim_io.h>
#include <string.h>

#include "timer2.h"

enum { TCCR2A_ = 0xB0, TCCR2B_ = 0xB1, TCNT2_ = 0xB2, OCR2A_ = 0xB3 };

static struct {
    avr_t *avr;
    avr_timer_t *t2;
    unsigned div;       // 0: stopped
    uint64_t origin;    // cycle the prescaler started
    uint64_t base;      // cycle of a prescaler edge at which the count was `count0`
    uint8_t count0;
} m;

static const unsigned divs[8] = {0, 1, 8, 32, 64, 128, 256, 1024};

static int ctc(void) { return ((m.avr->data[TCCR2A_] & 3) | (m.avr->data[TCCR2B_] & 8) >> 1) == 2; }

// The count now, and the steps since `base`.
static uint8_t count_now(void) {
    uint64_t steps = (m.avr->cycle - m.base) / m.div;
    uint8_t top = ctc() ? m.avr->data[OCR2A_] : 255;
    unsigned period = (unsigned)top + 1;
    return (uint8_t)((m.count0 + steps) % period);  // exact while count0 <= top (the firmware's case)
}

static avr_cycle_count_t on_match(avr_t *avr, avr_cycle_count_t when, void *param);

// Schedules the next compare match A from the count at `base`.
static void schedule(void) {
    avr_cycle_timer_cancel(m.avr, on_match, NULL);
    if (!m.div) return;
    uint8_t ocr = m.avr->data[OCR2A_];
    uint8_t top = ctc() ? ocr : 255;
    // Steps from count0 until the count equals OCR2A, then one more (the flag is set on leaving it).
    unsigned period = (unsigned)top + 1;
    unsigned to_ocr = (unsigned)((ocr + period - m.count0) % period);
    if (m.count0 > top) to_ocr = 256 - m.count0 + ocr;  // past TOP: counts up to 255 and wraps first
    uint64_t at = m.base + (uint64_t)(to_ocr + 1) * m.div;
    if (at <= m.avr->cycle) at += (uint64_t)period * m.div;
    avr_cycle_timer_register(m.avr, at - m.avr->cycle, on_match, NULL);
}

static avr_cycle_count_t on_match(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)param;
    avr_raise_interrupt(avr, &m.t2->comp[AVR_TIMER_COMPA].interrupt);
    // The count at `when` is OCR2A + 1 (normal) or 0 (CTC): continue from there.
    m.base = when;
    m.count0 = ctc() ? 0 : (uint8_t)(avr->data[OCR2A_] + 1);
    schedule();
    return 0;
}

// The prescaler edge at or after `cycle`.
static uint64_t next_edge(uint64_t cycle) {
    uint64_t k = (cycle - m.origin + m.div - 1) / m.div;
    return m.origin + k * m.div;
}

static void rebase(void) {
    if (!m.div) return;
    uint64_t edge = next_edge(m.avr->cycle);
    m.count0 = count_now();
    m.base = edge > m.avr->cycle ? edge - m.div : edge;
}

static void on_write(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param) {
    (void)param;
    if (addr == TCNT2_) {
        avr->data[addr] = v;
        if (m.div) {
            // The written value holds until the next prescaler edge, then counts on.
            uint64_t edge = next_edge(avr->cycle + 1);
            m.base = edge - m.div;
            m.count0 = v;
        }
    } else if (addr == TCCR2B_) {
        unsigned div = divs[v & 7];
        if (div && !m.div) {
            m.origin = avr->cycle;
            m.base = avr->cycle;
            m.count0 = avr->data[TCNT2_];
        } else if (m.div) {
            rebase();
        }
        avr->data[addr] = v;
        m.div = div;
    } else {
        rebase();
        avr->data[addr] = v;
    }
    schedule();
}

static uint8_t on_read_tcnt(avr_t *avr, avr_io_addr_t addr, void *param) {
    (void)addr, (void)param;
    return m.div ? count_now() : avr->data[TCNT2_];
}

static void on_reset(avr_io_t *io) {
    (void)io;
    m.div = 0;
}
static avr_io_t reset_hook = {.kind = "motorbreath-timer2", .reset = on_reset};

int timer2_attach(avr_t *avr) {
    memset(&m, 0, sizeof m);
    m.avr = avr;
    for (avr_io_t *io = avr->io_port; io; io = io->next)
        if (!strcmp(io->kind, "timer") && ((avr_timer_t *)io)->name == '2') m.t2 = (avr_timer_t *)io;
    if (!m.t2) return -1;
    avr_register_io(avr, &reset_hook);
    const uint16_t regs[] = {TCCR2A_, TCCR2B_, TCNT2_, OCR2A_};
    for (unsigned i = 0; i < 4; i++) {
        int a = AVR_DATA_TO_IO(regs[i]);
        avr->io[a].w.c = on_write;
        avr->io[a].w.param = NULL;
    }
    int a = AVR_DATA_TO_IO(TCNT2_);
    avr->io[a].r.c = on_read_tcnt;
    avr->io[a].r.param = NULL;
    return 0;
}
