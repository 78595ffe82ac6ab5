// Host stand-in for src/sense.c (host tests only): a board without the accelerometer, as the protocol
// core is checked on the host (SENSE is then an unknown type, capability bit 4 clear).
// SPDX-License-Identifier: Apache-2.0
#include "../src/sense.h"

bool sense_available(void) { return false; }
void sense_init(void) {}
void sense_handle(uint8_t seq, const uint8_t *p) { (void)seq, (void)p; }
void sense_host_alive(uint32_t arrived) { (void)arrived; }
void sense_service(void) {}
bool sense_attention(void) { return false; }
