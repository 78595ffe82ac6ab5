// The ADXL345 driver (see accel.h). Every transfer is one chip-select period: an address byte (bit 7
// read, bit 6 multi-byte), then data. A multi-byte read of the data registers returns one coherent
// sample (the part holds its registers for the length of the transfer; datasheet: "Register 0x32 to
// Register 0x37").
// SPDX-License-Identifier: Apache-2.0
#include "accel.h"
#include "spi.h"

bool accel_present;

static void write_reg(uint8_t reg, uint8_t v) {
    spi_select();
    spi_transfer(reg);
    spi_transfer(v);
    spi_deselect();
}

static uint8_t read_reg(uint8_t reg) {
    spi_select();
    spi_transfer(ADXL_READ | reg);
    uint8_t v = spi_transfer(0);
    spi_deselect();
    return v;
}

bool accel_init(void) {
    spi_init();
    // Without a part MISO floats (or reads all 0 or all 1): only 0xE5 counts.
    accel_present = read_reg(ADXL_DEVID) == ADXL_DEVID_VALUE;
    if (!accel_present) return false;
    write_reg(ADXL_POWER_CTL, 0);  // standby while it is set up
    write_reg(ADXL_DATA_FORMAT, ADXL_FULL_RES_16G);
    write_reg(ADXL_BW_RATE, ADXL_RATE_3200);
    write_reg(ADXL_FIFO_CTL, 0);  // bypass: the data registers hold the newest sample
    write_reg(ADXL_POWER_CTL, ADXL_MEASURE);
    return true;
}

uint8_t accel_read(uint8_t first, uint8_t last, uint8_t axes, uint8_t *out) {
    uint8_t n = 0;
    spi_transfer(ADXL_READ | ADXL_MULTI | (ADXL_DATAX0 + 2 * first));
    for (uint8_t a = first; a <= last; a++) {
        uint8_t lo = spi_transfer(0), hi = spi_transfer(0);
        if (axes & (1u << a)) {
            out[n++] = lo;
            out[n++] = hi;
        }
    }
    spi_deselect();
    return n;
}
