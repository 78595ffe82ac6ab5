// SPI master (see spi.h).
// SPDX-License-Identifier: Apache-2.0
#include <avr/io.h>

#include "board.h"
#include "spi.h"

void spi_init(void) {
    // CS high before its pin becomes an output; SCK high before SPE, so the first edge the part sees is
    // a falling one (mode 3 idles high). PB2 stays as pwm.c left it (an output on the H-bridge builds; an
    // output held low on the MOSFET build), which keeps the unit a master: /SS as an input read low
    // would switch it to slave.
    PORTB |= _BV(SPI_CS_BIT) | _BV(PB5);
    DDRB |= _BV(SPI_CS_BIT) | _BV(PB3) | _BV(PB5) | _BV(PIN_DRIVE_B);
    DDRB &= ~_BV(PB4);
    SPCR = _BV(SPE) | _BV(MSTR) | _BV(CPOL) | _BV(CPHA);  // SPR1:0 = 0, SPI2X = 0: fosc/4
    SPSR = 0;
}

uint8_t spi_transfer(uint8_t out) {
    SPDR = out;
    // 32 cycles on hardware, where a master always finishes its byte; bounded (about 1000 cycles) so that
    // a simulator with nothing on the bus cannot hang the boot.
    for (uint8_t i = 0; i < 200 && !(SPSR & _BV(SPIF)); i++) {
    }
    return SPDR;
}
