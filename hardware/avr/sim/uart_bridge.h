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

void bridge_close(void);

#endif
