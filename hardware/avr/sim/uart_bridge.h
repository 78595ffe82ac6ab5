// UART0 of the simulated MCU behind a new pseudo-terminal: what the host writes to the pty enters the
// receiver, what the firmware transmits comes out of the pty.
// SPDX-License-Identifier: Apache-2.0
#ifndef UART_BRIDGE_H
#define UART_BRIDGE_H

#include <simavr/sim_avr.h>

// Creates the pty (its path is in *path) and connects it to UART0. 0 on success.
int bridge_open(avr_t *avr, const char **path);

// Moves bytes both ways without blocking. Call often (every ~100 us of simulated time).
void bridge_service(void);

// 1 once each time a host opens the slave while nobody had it open (the moment a USB-serial adapter
// asserts DTR and an Arduino resets). Call between bridge_service calls.
int bridge_client_opened(void);

// Forgets the host's bytes not yet in the UART (the chip is in reset: they are lost).
void bridge_drop_input(void);

// With on, bytes cross as a receiver at the other side's rate reads them (a mismatch garbles them).
void bridge_match_rates(int on);

void bridge_close(void);

#endif
