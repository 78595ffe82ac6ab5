// Injects a receive error (FE0, a framing error) on one byte the firmware reads: --rx-error-at N.
// SPDX-License-Identifier: Apache-2.0
#ifndef RX_ERROR_H
#define RX_ERROR_H

#include <simavr/sim_avr.h>

// The `nth` byte the firmware reads from UDR0 (1 is the first) comes with FE0 set in UCSR0A; 0: none.
void rx_error_attach(avr_t *avr, unsigned nth);

#endif
