// The ATmega328P's SPI port as a bus master for one device (the accelerometer): SCK = PB5 (D13), MOSI =
// PB3 (D11), MISO = PB4 (D12), chip select on PB0 (D8). PB2 (D10, the hardware /SS) drives OC1B on the
// H-bridge builds, so it is not the chip select; as an output it keeps the SPI unit a master.
// SPDX-License-Identifier: Apache-2.0
#ifndef SPI_H
#define SPI_H

#include <avr/io.h>
#include <stdint.h>

#define SPI_CS_BIT 0  // PB0 = Arduino D8

// Master, SPI mode 3 (CPOL = 1: SCK idles high; CPHA = 1: sampled on the rising edge), MSB first,
// fosc/4 = 4 MHz (the ADXL345 takes at most 5 MHz). Chip select high (idle).
void spi_init(void);

uint8_t spi_transfer(uint8_t out);  // one byte each way, waits for it (8 bits at 4 MHz: 2 us)

static inline void spi_select(void) { PORTB &= ~_BV(SPI_CS_BIT); }
static inline void spi_deselect(void) { PORTB |= _BV(SPI_CS_BIT); }

#endif
