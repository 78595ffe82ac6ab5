// The board's 64-bit unique id (INFO unique_id) from the ATmega328P signature row's serial number.
// Pure C with no AVR headers: `make host-test` checks it on the host against signature-row images.
// SPDX-License-Identifier: Apache-2.0
#ifndef UID_H
#define UID_H

#include <stdint.h>

// Signature-row bytes 0x0E-0x17: lot number (0x0E-0x13), reserved (0x14), wafer (0x15), die Y (0x16),
// die X (0x17).
#define UID_ROW_FIRST 0x0E
#define UID_ROW_BYTES 10

// The id's 8 bytes in wire order (little-endian u64) from `sn`, the signature row's bytes 0x0E-0x17:
//   id[0] = lot[0] ^ (lot[5] with its nibbles swapped)   (the lot's 6 bytes folded into 5)
//   id[1..4] = lot[1..4]
//   id[5] = wafer, id[6] = die Y, id[7] = die X           (kept whole)
// The reserved byte is left out. Dies that differ in wafer or position always get different ids.
void uid_from_signature(const uint8_t sn[UID_ROW_BYTES], uint8_t id[8]);

#endif
