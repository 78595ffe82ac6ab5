// Host stand-in for avr-libc's <util/crc16.h> (host tests only): _crc_xmodem_update in plain C, as avr-libc
// documents its C equivalent (polynomial 0x1021, MSB first). The firmware's crc16.c starts it at CRC16_INIT.
// SPDX-License-Identifier: Apache-2.0
#ifndef HOST_UTIL_CRC16_H
#define HOST_UTIL_CRC16_H

#include <stdint.h>

static inline uint16_t _crc_xmodem_update(uint16_t crc, uint8_t data) {
    crc ^= (uint16_t)data << 8;
    for (int i = 0; i < 8; i++) crc = crc & 0x8000 ? (uint16_t)(crc << 1 ^ 0x1021) : (uint16_t)(crc << 1);
    return crc;
}

#endif
