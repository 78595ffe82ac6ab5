// The ADXL345 accelerometer on SPI (datasheet Rev. E, "Serial communications" and "Register map"):
// finding it at boot, setting it up for vibration (3200 Hz output data rate, full resolution, +-16 g) and
// reading its data registers in one multi-byte transfer.
// SPDX-License-Identifier: Apache-2.0
#ifndef ACCEL_H
#define ACCEL_H

#include <stdbool.h>
#include <stdint.h>

// Registers and bits used (datasheet Table 19 and the register descriptions).
#define ADXL_DEVID 0x00        // reads 0xE5
#define ADXL_DEVID_VALUE 0xE5
#define ADXL_BW_RATE 0x2C      // rate code in bits 3:0; 0x0F = 3200 Hz output data rate
#define ADXL_POWER_CTL 0x2D    // bit 3 Measure
#define ADXL_DATA_FORMAT 0x31  // bit 6 SPI (0: 4-wire), bit 3 FULL_RES, bits 1:0 range (3: +-16 g)
#define ADXL_DATAX0 0x32       // X0 X1 Y0 Y1 Z0 Z1: little-endian two's complement, right-justified
#define ADXL_FIFO_CTL 0x38     // bits 7:6 FIFO mode (0: bypass)
#define ADXL_READ 0x80         // address byte bit 7: read
#define ADXL_MULTI 0x40        // address byte bit 6: more than one byte (the address counts up)

#define ADXL_RATE_3200 0x0F
#define ADXL_MEASURE 0x08
#define ADXL_FULL_RES_16G 0x0B  // FULL_RES | range 3, SPI bit 0 (4-wire), not self-test, right-justified
#define ADXL_ODR_HZ 3200u
#define ADXL_SCALE_UG 3906u     // 3.9 mg per count at full resolution (datasheet: 3.5-4.3, typ. 3.9)
#define ADXL_RANGE_G 16u

// Whether boot found the part (DEVID read back 0xE5).
extern bool accel_present;

// At boot, before interrupts: SPI set up, DEVID read; if it is an ADXL345, it is configured and put into
// measurement. Returns accel_present.
bool accel_init(void);

// With the chip already selected (spi_select: the caller stamps the read), reads the data registers of
// axes `first` ... `last` (0 = X, 1 = Y, 2 = Z) in one transfer, storing
// the axes set in `axes` (bit 0 X, 1 Y, 2 Z) little-endian into out. Returns the bytes stored.
uint8_t accel_read(uint8_t first, uint8_t last, uint8_t axes, uint8_t *out);

#endif
