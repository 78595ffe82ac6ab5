// CRC-16/CCITT-FALSE over a buffer (see crc16.h).
// SPDX-License-Identifier: Apache-2.0
#include "crc16.h"

uint16_t crc16(const uint8_t *p, uint16_t n) {
    uint16_t crc = CRC16_INIT;
    while (n--) crc = crc16_byte(crc, *p++);
    return crc;
}
