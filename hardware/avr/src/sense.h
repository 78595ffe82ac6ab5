// SENSE, SENSOR and SAMPLES (protocol.md section 4, capability bit 4): the accelerometer sampled on the
// board clock by Timer2's compare interrupt, batched into SAMPLES by the main loop.
// SPDX-License-Identifier: Apache-2.0
#ifndef SENSE_H
#define SENSE_H

#include <stdbool.h>
#include <stdint.h>

#include "wire_gen.h"

// The most sample bytes one SAMPLES carries from this board: its 2 KB of RAM hold a 32-byte sample ring
// (a batch plus 8 bytes, 1.25 ms of one axis at 3200/s, while the main loop is busy), not the
// protocol's 228: the stack needs the rest (the sampling interrupt runs with interrupts on, so the PWM
// period interrupt's output path nests on it on top of the main loop: 205 of the 206 bytes the `lra`
// build had with a 48-byte ring). A batch over it gets NAK bad_config like one over the protocol's
// limit: at most 12 samples of one axis, 6 of two, 4 of three.
#define SENSE_BATCH_BYTES 24u
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
