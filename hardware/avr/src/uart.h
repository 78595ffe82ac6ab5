// USART0 (Arduino D0/D1, the USB-serial bridge): interrupt-driven receive and transmit rings.
// SPDX-License-Identifier: Apache-2.0
#ifndef UART_H
#define UART_H

#include <stdbool.h>
#include <stdint.h>

void uart_init(void);

// Receive: bytes the RX interrupt stored, oldest first.
bool uart_rx_ready(void);
uint8_t uart_rx_take(void);  // call only when uart_rx_ready()
// The board tick (low 32 bits) at which the 0x00 just taken arrived: call once after each 0x00 taken.
uint32_t uart_rx_zero_tick(void);

// Transmit: queues a byte (waits while the ring is full; the UDRE interrupt drains it). Callers check
// uart_tx_free first, so the wait never happens in practice.
void uart_put(uint8_t b);
uint8_t uart_tx_free(void);
bool uart_tx_idle(void);

// Receive-ring overflows since boot (bytes the main loop was too slow to take), and bytes received with
// a framing error (FE0: a bad stop bit, e.g. the break of an adapter unplugged) or after a hardware data
// overrun (DOR0: bytes lost because the interrupt came too late). Both wrap at 2^16.
extern volatile uint16_t uart_rx_overruns, uart_rx_line_errors;
// Their sum (interrupts off for the read): STATUS rx_other_errors includes it.
uint16_t uart_rx_lost(void);

#endif
