// Host stand-in for <avr/io.h> (host tests only): the Timer1 and port B registers pwm.c and output.c
// write, as plain variables (test/replay.c defines them and reads OCR1A/OCR1B).
// SPDX-License-Identifier: Apache-2.0
#ifndef HOST_AVR_IO_H
#define HOST_AVR_IO_H

#include <stdint.h>

extern volatile uint16_t OCR1A, OCR1B, ICR1, TCNT1;
extern volatile uint8_t PORTB, DDRB, TCCR1A, TCCR1B, TIFR1, TIMSK1;
#define _BV(b) (1u << (b))
#define COM1A1 7
#define COM1A0 6
#define COM1B1 5
#define COM1B0 4
#define WGM11 1
#define WGM13 4
#define WGM12 3
#define CS10 0
#define TOV1 0
#define TOIE1 0

#endif
