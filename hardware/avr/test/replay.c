// Host HAL for the firmware's protocol and playback core (link.c, proto.c, reply.c, play.c, output.c,
// limit.c, frames.c, timebase.c, pwm.c compiled with cc): replays a trace of host messages with arrival
// ticks and prints what the board did, for CoreReplayTests to hold against BoardCore. Timer1 is simulated:
// its overflow interrupt (bottom_isr.S's logic) runs at every PWM period start, the main loop after it and
// at each message's arrival tick; the UART is a byte queue both ways.
//
// stdin:  "msg TICK HEX..." (a message's wire bytes, delimiter included, arriving at TICK), "end TICK".
// stdout: "out TICK LEVEL" (the drive level from that BOTTOM on), "reply TICK HEX..." (a frame sent).
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/clock.h"
#include "../src/fault.h"
#include "../src/link.h"
#include "../src/output.h"
#include "../src/play.h"
#include "../src/proto.h"
#include "../src/pwm.h"
#include "../src/reply.h"
#include "../src/uart.h"

volatile uint16_t OCR1A, OCR1B, ICR1, TCNT1;
volatile uint8_t PORTB, DDRB, TCCR1A, TCCR1B, TIFR1, TIMSK1;
volatile uint32_t clock_base_lo, clock_base_hi;
extern volatile uint32_t out_work_at;
void output_bottom(uint32_t b);  // output.c, called by bottom_isr.S

static uint64_t now;
uint64_t clock_now(void) { return now; }
uint32_t clock_now_lo(void) { return (uint32_t)now; }
void fault_restart(void) {
    printf("fault %llu\n", (unsigned long long)now);
    exit(3);
}

static uint8_t rx[4096];
static int rx_len, rx_pos;
static uint32_t rx_zero_tick;
bool uart_rx_ready(void) { return rx_pos < rx_len; }
uint8_t uart_rx_take(void) { return rx[rx_pos++]; }
uint32_t uart_rx_zero_tick(void) { return rx_zero_tick; }
static uint8_t tx[4096];
static int tx_len;
void uart_put(uint8_t b) {
    if (tx_len < (int)sizeof tx) tx[tx_len++] = b;
}
uint8_t uart_tx_free(void) { return 255; }
uint16_t uart_rx_lost(void) { return 0; }

// Prints the frames sent so far, one line each.
static void flush_tx(void) {
    int start = 0;
    for (int i = 0; i < tx_len; i++) {
        if (tx[i] != 0) continue;
        printf("reply %llu", (unsigned long long)now);
        for (int k = start; k <= i; k++) printf(" %02X", tx[k]);
        printf("\n");
        start = i + 1;
    }
    memmove(tx, tx + start, tx_len - start);
    tx_len -= start;
}

static void main_loop_pass(void) {
    for (;;) {
        message m;
        bool got = link_receive(&m);
        if (got) proto_handle(&m);
        play_service(got);
        flush_tx();
        if (!got) return;
    }
}

static int16_t shown_level;

// The Timer1 overflow interrupt at BOTTOM tick `b` (bottom_isr.S).
static void bottom(uint64_t b) {
    now = b;
    out_bottoms++;
    clock_base_lo = (uint32_t)b;
    clock_base_hi = (uint32_t)(b >> 32);
    if ((int32_t)((uint32_t)b - out_work_at) >= 0) output_bottom((uint32_t)b);
    int16_t level = out_level_now();
    if (level != shown_level) {
        printf("out %llu %d\n", (unsigned long long)b, level);
        shown_level = level;
    }
}

static uint64_t next_bottom = PWM_PERIOD;

// A busy wait in the main loop (util/delay.h): the interrupt keeps running meanwhile.
void host_delay_us(unsigned us) {
    uint64_t until = now + (uint64_t)us * (CLOCK_HZ / 1000000);
    while (next_bottom <= until) {
        bottom(next_bottom);
        next_bottom += PWM_PERIOD;
    }
    now = until;
}

int main(void) {
    pwm_init();
    reply_info(false);
    flush_tx();
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        unsigned long long t;
        int used;
        bool end = sscanf(line, "end %llu", &t) == 1;
        if (!end && sscanf(line, "msg %llu%n", &t, &used) != 1) continue;
        while (next_bottom <= t) {  // time passes up to the arrival: interrupt, then the main loop
            bottom(next_bottom);
            main_loop_pass();
            next_bottom += PWM_PERIOD;
        }
        if (end) break;
        now = t;
        unsigned b;
        int n;
        for (char *p = line + used; sscanf(p, " %2x%n", &b, &n) == 1; p += n) rx[rx_len++] = (uint8_t)b;
        rx_zero_tick = (uint32_t)t;
        main_loop_pass();
        if (rx_pos == rx_len) rx_pos = rx_len = 0;
    }
    return 0;
}
