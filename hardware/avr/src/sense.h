// SENSE, SENSOR and SAMPLES (protocol.md section 4, capability bit 4): the accelerometer sampled on the
// board clock by Timer2's compare interrupt, batched into SAMPLES by the main loop.
// SPDX-License-Identifier: Apache-2.0
#ifndef SENSE_H
#define SENSE_H

#include <stdbool.h>
#include <stdint.h>

#include "wire_gen.h"

// The most sample bytes one SAMPLES carries from this board: its 2 KB of RAM hold a 48-byte sample ring
// (a batch plus 16 bytes, 2.5 ms of one axis at 3200/s, while the main loop is busy), not the
// protocol's 228: the stack needs the rest (the sampling interrupt nests the PWM period interrupt on top
// of the main loop, 215 B measured). A batch over it gets NAK bad_config like one over the protocol's
// limit: at most 16 samples of one axis, 8 of two, 5 of three.
#define SENSE_BATCH_BYTES 32u
#define SENSE_MAX_RATE_HZ 3200u  // the ADXL345's highest output data rate

// Whether the board has its sensor (boot found an ADXL345): INFO capability bit 4, SENSE taken.
bool sense_available(void);
// Boot, before interrupts: looks for the sensor (accel.c).
void sense_init(void);
// SENSE (payload checked for size): answers SENSOR or NAK bad_config (detail 0).
void sense_handle(uint8_t seq, const uint8_t *p);
// Every valid frame from the host (proto.c): sampling stops after 1000 ms without one.
void sense_host_alive(uint32_t arrived);
// Main loop: sends the batches the interrupt has filled; stops on host silence.
void sense_service(void);
// Whether a batch is waiting for the main loop (it wakes for it).
bool sense_attention(void);

#endif
