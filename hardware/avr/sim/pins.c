// The PWM pins (see pins.h).
//
// Why a model: simavr 1.6's Timer1 counts correctly (TCNT1, the overflow flag and interrupt, which are
// all the firmware reads), but its output-compare unit does not follow the datasheet in fast PWM mode
// 14 (TOP = ICR1): the mode is treated as phase-correct so OCR1x writes after start-up are ignored
// (upstream bug 579, fixed in 1.8); writes that are applied take effect at once instead of at the next
// BOTTOM (the compare registers are double-buffered in PWM modes); OCR1x = TOP gives the opposite of
// the datasheet's constant level; and a compare due within the few cycles simavr runs its timer
// events late is lost. So this file leaves simavr's pin output alone and computes OC1A/OC1B itself:
//
//  - BOTTOM is when simavr's counter wraps: its start cycle plus whole periods of (ICR1 + 1) cycles,
//    the same grid the firmware's TCNT1 reads and overflow interrupts follow.
//  - OCR1x writes go to a buffer, copied to the active compare value at each BOTTOM (datasheet table
//    15-5, mode 14: "update of OCR1x at BOTTOM"); while the timer is stopped they apply at once.
//  - Fast PWM, COM1x = 2: the OC1x latch is set at BOTTOM and cleared OCR1x + 1 cycles later;
//    COM1x = 3 the reverse; OCR1x >= TOP: no compare, a constant level (high for 2, low for 3).
//  - The pin is the latch while COM1x is 2 or 3, else PORTB's bit; an input pin reads as 0 (the
//    board's pull-down). A latch keeps its value while disconnected.
//
// Changes caused by the timer are recorded at the cycle the datasheet gives (not when simavr got
// round to the event); changes caused by a register write at the cycle of the write.
// SPDX-License-Identifier: Apache-2.0
#include <simavr/avr_ioport.h>
#include <simavr/avr_timer.h>
#include <simavr/sim_cycle_timers.h>
#include <simavr/sim_io.h>
#include <stdio.h>
#include <string.h>

#include "pins.h"
#include "record.h"

// ATmega328P data addresses.
enum { DDRB_ = 0x24, PORTB_ = 0x25, TCCR1A_ = 0x80, TCCR1B_ = 0x81, ICR1L_ = 0x86, ICR1H_ = 0x87,
       OCR1AL_ = 0x88, OCR1AH_ = 0x89, OCR1BL_ = 0x8A, OCR1BH_ = 0x8B };
static const uint8_t port_bit[2] = {1, 2};  // PB1 = OC1A, PB2 = OC1B
static const char *const name[2] = {"pA", "pB"};

static struct {
    avr_t *avr;
    avr_timer_t *t1;
    int running;
    uint64_t bottom;  // cycle of the current period's BOTTOM
    uint16_t ocr_buf[2], ocr[2];
    uint8_t latch[2];
    int level[2];  // last recorded pin level (-1: none yet)
    int warned;
} m;

static uint8_t reg(uint16_t a) { return m.avr->data[a]; }
static uint16_t reg16(uint16_t lo) { return (uint16_t)(reg(lo) | reg(lo + 1) << 8); }
static uint8_t com(int c) { return (reg(TCCR1A_) >> (c ? 4 : 6)) & 3; }
static int wgm(void) { return ((reg(TCCR1B_) >> 3) & 3) << 2 | (reg(TCCR1A_) & 3); }
static int connected(int c) { return m.running && wgm() == 14 && com(c) >= 2; }

static void update_pin(int c, uint64_t cycle) {
    uint8_t bit = 1 << port_bit[c];
    int level;
    if (!(reg(DDRB_) & bit)) level = 0;
    else if (connected(c)) level = m.latch[c];
    else level = (reg(PORTB_) & bit) != 0;
    if (level != m.level[c]) {
        m.level[c] = level;
        record_line(name[c], cycle, level);
    }
}

static avr_cycle_count_t compare_a(avr_t *avr, avr_cycle_count_t when, void *param);
static avr_cycle_count_t compare_b(avr_t *avr, avr_cycle_count_t when, void *param);
static const avr_cycle_timer_t compare_cb[2] = {compare_a, compare_b};

static void compare(int c, avr_cycle_count_t at) {
    if (connected(c)) m.latch[c] = com(c) == 3;
    update_pin(c, at);
}
static avr_cycle_count_t compare_a(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)avr, (void)param;
    compare(0, when);
    return 0;
}
static avr_cycle_count_t compare_b(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)avr, (void)param;
    compare(1, when);
    return 0;
}

// A period begins at `when`: latch the buffered compare values, set or clear the outputs, and
// schedule the compare matches.
static avr_cycle_count_t at_bottom(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)param;
    if (!m.running) return 0;
    uint16_t top = reg16(ICR1L_);
    m.bottom = when;
    for (int c = 0; c < 2; c++) {
        m.ocr[c] = m.ocr_buf[c];
        if (!connected(c)) continue;
        m.latch[c] = com(c) == 2;
        update_pin(c, when);
        if (m.ocr[c] < top) {
            avr_cycle_count_t at = when + m.ocr[c] + 1;
            if (at <= avr->cycle) compare(c, at);  // simavr ran this event late: the match is past
            else avr_cycle_timer_register(avr, at - avr->cycle, compare_cb[c], NULL);
        }
    }
    return when + m.t1->tov_cycles;
}

static void stop_timer(void) {
    m.running = 0;
    avr_cycle_timer_cancel(m.avr, at_bottom, NULL);
    avr_cycle_timer_cancel(m.avr, compare_a, NULL);
    avr_cycle_timer_cancel(m.avr, compare_b, NULL);
}

static void on_tccr1b(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param) {
    (void)addr, (void)param;
    int clocked = (v & 7) != 0;
    if (clocked && !m.running && m.t1->tov_cycles > 1) {
        // simavr has just started its counter at tov_base: the board clock's tick 0.
        m.running = 1;
        m.bottom = m.t1->tov_base;
        m.ocr[0] = m.ocr_buf[0];
        m.ocr[1] = m.ocr_buf[1];
        record_line("t1", m.bottom, -1);
        avr_cycle_timer_register(avr, m.bottom + m.t1->tov_cycles - avr->cycle, at_bottom, NULL);
        if ((reg(TCCR1B_) & 0x18) != 0x18 && !m.warned) {
            fprintf(stderr, "motorbreath-avr-sim: Timer1 mode %d: only mode 14 is modelled at the pins\n", wgm());
            m.warned = 1;
        }
    } else if (!clocked && m.running) {
        stop_timer();
    }
    update_pin(0, avr->cycle);
    update_pin(1, avr->cycle);
}

static void on_ocr(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param) {
    (void)avr, (void)v, (void)param;
    if (addr == OCR1AH_ || addr == OCR1BH_) return;  // a 16-bit write ends with its low byte
    int c = addr >= OCR1BL_;
    m.ocr_buf[c] = reg16(c ? OCR1BL_ : OCR1AL_);
    if (!m.running) m.ocr[c] = m.ocr_buf[c];
}

static void on_port(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param) {
    (void)addr, (void)v, (void)param;
    update_pin(0, avr->cycle);
    update_pin(1, avr->cycle);
}

// avr_reset (a watchdog reset) clears the registers and every cycle timer, then calls this.
static void on_reset(avr_io_t *io) {
    (void)io;
    m.running = 0;
    memset(m.ocr_buf, 0, sizeof m.ocr_buf);
    memset(m.ocr, 0, sizeof m.ocr);
    memset(m.latch, 0, sizeof m.latch);
    record_line("reset", m.avr->cycle, -1);
    update_pin(0, m.avr->cycle);
    update_pin(1, m.avr->cycle);
}

// Register write hooks that run after simavr's own handler (simavr can chain only four registers).
static struct {
    avr_io_write_t simavr, ours;
    void *param;
} hooks[MAX_IOs];

static void hooked_write(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param) {
    (void)param;
    int a = AVR_DATA_TO_IO(addr);
    if (hooks[a].simavr) hooks[a].simavr(avr, addr, v, hooks[a].param);
    else avr_core_watch_write(avr, addr, v);  // no simavr handler: store the byte as the core would
    hooks[a].ours(avr, addr, v, NULL);
}

static void hook(avr_t *avr, uint16_t addr, avr_io_write_t ours) {
    int a = AVR_DATA_TO_IO(addr);
    hooks[a].simavr = avr->io[a].w.c;
    hooks[a].param = avr->io[a].w.param;
    hooks[a].ours = ours;
    avr->io[a].w.c = hooked_write;
    avr->io[a].w.param = NULL;
}

static avr_io_t reset_hook = {.kind = "motorbreath-pins", .reset = on_reset};

static avr_timer_t *find_timer1(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next)
        if (!strcmp(io->kind, "timer") && ((avr_timer_t *)io)->name == '1') return (avr_timer_t *)io;
    return NULL;
}

int pins_attach(avr_t *avr) {
    memset(&m, 0, sizeof m);
    m.avr = avr;
    m.level[0] = m.level[1] = -1;
    m.t1 = find_timer1(avr);
    if (!m.t1) return -1;
    avr_register_io(avr, &reset_hook);
    hook(avr, TCCR1B_, on_tccr1b);
    hook(avr, TCCR1A_, on_port);
    hook(avr, OCR1AL_, on_ocr);
    hook(avr, OCR1AH_, on_ocr);
    hook(avr, OCR1BL_, on_ocr);
    hook(avr, OCR1BH_, on_ocr);
    hook(avr, PORTB_, on_port);
    hook(avr, DDRB_, on_port);
    update_pin(0, avr->cycle);
    update_pin(1, avr->cycle);
    return 0;
}

double pins_duty(int c) {
    if (!connected(c)) return m.level[c] > 0;
    uint16_t top = reg16(ICR1L_);
    if (m.ocr[c] >= top) return com(c) == 2;  // no compare match: a constant level
    double high = com(c) == 3 ? top - m.ocr[c] : m.ocr[c] + 1;
    return high / (top + 1);
}
