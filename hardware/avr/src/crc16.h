// CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR): the
// protocol's frame check and PLAYED's duty checksum. The CRC of "123456789" is 0x29B1.
// SPDX-License-Identifier: Apache-2.0
#ifndef CRC16_H
#define CRC16_H

#include <stdint.h>
#include <util/crc16.h>

#include "wire_gen.h"  // CRC16_INIT

// avr-libc's _crc_xmodem_update is this CRC's MSB-first update step for polynomial 0x1021 (XMODEM
// differs only in starting from 0): branch-free assembly, about 20 cycles a byte.
static inline uint16_t crc16_byte(uint16_t crc, uint8_t b) { return _crc_xmodem_update(crc, b); }

uint16_t crc16(const uint8_t *p, uint16_t n);

#endif
