// An ADXL345 accelerometer on the simulated MCU's SPI port (SCK PB5, MOSI PB3, MISO PB4, chip select
// PB0 = D8), emulated at the register level: 4-wire SPI in mode 3 only, the read and multi-byte bits of
// the address byte, DEVID, BW_RATE, POWER_CTL, DATA_FORMAT, FIFO_CTL, and data registers that the part
// updates at its output data rate while measuring. Every transfer is recorded (record.h, `spi`).
// SPDX-License-Identifier: Apache-2.0
#ifndef ADXL345_H
#define ADXL345_H

#include <simavr/sim_avr.h>

// What the data registers follow (--accel):
//   ACCEL_NONE   no part on the bus: MISO reads 0 (the firmware finds no DEVID and clears bit 4)
//   ACCEL_SINE   X = 400 sin(2 pi 175 Hz t), Y = 200 cos(..), Z = 256 (1 g) counts
//   ACCEL_MOTOR  an ERM-like response to the duty at OC1A (D9): its speed follows the duty with a 40 ms
//                lag, the vibration's frequency (up to 200 Hz) and amplitude (up to 2 g) follow the speed
enum { ACCEL_NONE, ACCEL_SINE, ACCEL_MOTOR };

// Attaches the part (nothing for ACCEL_NONE). Call after avr_init and pins_attach.
int adxl345_attach(avr_t *avr, int mode);

#endif
