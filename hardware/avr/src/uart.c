// USART0 at BAUD (board.h), 8N1: the RX interrupt fills a ring the main loop drains; uart_put fills a
// ring the UDRE interrupt drains. Indices are free-running bytes; each ring has one writer and one reader.
// SPDX-License-Identifier: Apache-2.0
#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/delay.h>

#include "board.h"
#include "clock.h"
#include "fault.h"
#include "uart.h"

// 256-byte rings indexed by free-running bytes hold 255 (one slot tells full from empty). Both are this
// big because a reply can be longer than its request (a 25-frame FRAMES of 45 bytes draws a 50-byte
// STATUS): while a burst of requests is answered, the main loop waits for transmit space, and the
// requests that keep arriving meanwhile must fit in the receive ring (5 such messages do).
#define RX_SIZE 256u
#define TX_SIZE 256u
#define RX_MASK (RX_SIZE - 1)
#define TX_MASK (TX_SIZE - 1)

static uint8_t rx_buf[RX_SIZE];
static volatile uint8_t rx_head, rx_tail;  // written by the ISR / by the main loop
static uint8_t tx_buf[TX_SIZE];
static volatile uint8_t tx_head, tx_tail;  // written by the main loop / by the ISR
volatile uint16_t uart_rx_overruns, uart_rx_line_errors;
// Arrival times of received delimiters (frame ends), so the failsafe counts from when a message arrived,
// not from when the main loop got round to it. The interrupt keeps it cheap: it stores Timer1's count,
// the overflow flag and the low half of the clock base; uart_rx_zero_tick turns that into a tick.
#define ZERO_STAMPS 8u
static struct {
    uint16_t count, base;
    uint8_t uncounted;
} zero_stamp[ZERO_STAMPS];
static volatile uint8_t zero_head, zero_tail;

void uart_init(void) {
    UCSR0A = _BV(U2X0);
    // Frame format before the divisor: simavr computes its byte time when UBRR0L is written.
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
    UBRR0H = (uint8_t)(UBRR_VALUE >> 8);
    UBRR0L = (uint8_t)UBRR_VALUE;
    UCSR0B = _BV(RXCIE0) | _BV(RXEN0) | _BV(TXEN0);
}

ISR(USART_RX_vect) {
    uint8_t status = UCSR0A;  // FE0 and DOR0 belong to the byte in UDR0: valid only before it is read
    uint8_t b = UDR0;
    if (status & (_BV(FE0) | _BV(DOR0))) uart_rx_line_errors++;  // a bad stop bit, or bytes lost before b
    uint8_t h = rx_head;
    if ((uint8_t)(h - rx_tail) == (uint8_t)(RX_SIZE - 1)) {
        uart_rx_overruns++;
        return;
    }
    rx_buf[h & RX_MASK] = b;
    rx_head = h + 1;
    if (b == 0) {  // interrupts are off here: the read of clock.c's proof, in parts
        uint8_t z = zero_head & (ZERO_STAMPS - 1);
        uint16_t t = TCNT1;
        uint8_t flag = TIFR1 & _BV(TOV1);
        if (flag) t = TCNT1;
        zero_stamp[z].count = t;
        zero_stamp[z].uncounted = flag && t < PWM_PERIOD / 2;
        zero_stamp[z].base = (uint16_t)clock_base_lo;
        zero_head = zero_head + 1;
    }
}

bool uart_rx_ready(void) { return rx_head != rx_tail; }

uint16_t uart_rx_lost(void) {
    cli();
    uint16_t n = uart_rx_overruns + uart_rx_line_errors;
    sei();
    return n;
}

uint32_t uart_rx_zero_tick(void) {
    uint8_t z = zero_tail;
    zero_tail = z + 1;
    uint32_t now = clock_now_lo();
    cli();
    // More delimiters waiting than stamps kept: this one's was overwritten; now is the best we know.
    if ((uint8_t)(zero_head - z) > ZERO_STAMPS) {
        sei();
        return now;
    }
    uint16_t count = zero_stamp[z & (ZERO_STAMPS - 1)].count, base = zero_stamp[z & (ZERO_STAMPS - 1)].base;
    uint8_t uncounted = zero_stamp[z & (ZERO_STAMPS - 1)].uncounted;
    sei();
    // The stamp's base is the low half of a multiple of PWM_PERIOD at most a few ms before now: put the
    // high half back from now.
    uint32_t full = (now & 0xFFFF0000UL) | base;
    if (full > now) full -= 0x10000UL;
    return full + count + (uncounted ? PWM_PERIOD : 0);
}

uint8_t uart_rx_take(void) {
    uint8_t t = rx_tail;
    uint8_t b = rx_buf[t & RX_MASK];
    rx_tail = t + 1;
    return b;
}

ISR(USART_UDRE_vect) {
    uint8_t t = tx_tail;
    if (t == tx_head) {
        UCSR0B &= ~_BV(UDRIE0);  // ring empty: stop until uart_put queues more
        return;
    }
    UDR0 = tx_buf[t & TX_MASK];
    tx_tail = t + 1;
}

void uart_put(uint8_t b) {
    uint8_t h = tx_head;
    // Full: the UDRE interrupt frees a slot every byte time (20 us; 87 us at 115200). If it has stopped
    // (a corrupted UCSR0B), waiting would hang the main loop while feeding nothing: after 5 ms the fault
    // path turns the outputs off and restarts. (link_send checks for room first: this rarely waits.)
    for (uint16_t us = 0; (uint8_t)(h - tx_tail) == (uint8_t)(TX_SIZE - 1); us++) {
        if (us >= 5000) fault_restart();
        _delay_us(1);
    }
    tx_buf[h & TX_MASK] = b;
    tx_head = h + 1;
    // Not atomic (UCSR0B is outside the SBI range), and the UDRE interrupt may clear UDRIE0 in between:
    // harmless, since both only touch UDRIE0, and setting it with the ring empty costs one interrupt.
    UCSR0B |= _BV(UDRIE0);
}

bool uart_tx_idle(void) { return tx_head == tx_tail; }

uint8_t uart_tx_free(void) { return (uint8_t)(TX_SIZE - 1) - (uint8_t)(tx_head - tx_tail); }
