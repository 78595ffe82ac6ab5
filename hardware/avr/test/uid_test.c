// Host test of the unique id's construction (src/uid.c) against signature-row images: `make host-test`.
// simavr does not model the signature row, so this is where the id is checked. Exits non-zero on failure.
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <string.h>

#include "../src/uid.h"

static int failures;

static void expect_id(const char *what, const uint8_t sn[UID_ROW_BYTES], const uint8_t want[8]) {
    uint8_t id[8];
    uid_from_signature(sn, id);
    if (memcmp(id, want, 8)) {
        failures++;
        printf("FAIL %s: id", what);
        for (int i = 0; i < 8; i++) printf(" %02X", id[i]);
        printf(", expected");
        for (int i = 0; i < 8; i++) printf(" %02X", want[i]);
        printf("\n");
    }
}

static void expect_differ(const char *what, const uint8_t a[UID_ROW_BYTES], const uint8_t b[UID_ROW_BYTES]) {
    uint8_t ia[8], ib[8];
    uid_from_signature(a, ia);
    uid_from_signature(b, ib);
    if (!memcmp(ia, ib, 8)) {
        failures++;
        printf("FAIL %s: both ids are the same\n", what);
    }
}

int main(void) {
    // A signature-row image as the ArduinoUniqueID library dumps one (bytes 0x0E-0x17): lot "X73414",
    // reserved 0x1E, wafer 12, die Y 29, die X 32. Its id, also the example in protocol.md (INFO):
    // 1B 37 33 34 31 0C 1D 20, unique_id 0x201D0C313433371B.
    const uint8_t a[UID_ROW_BYTES] = {0x58, 0x37, 0x33, 0x34, 0x31, 0x34, 0x1E, 0x0C, 0x1D, 0x20};
    expect_id("example", a, (const uint8_t[8]){0x1B, 0x37, 0x33, 0x34, 0x31, 0x0C, 0x1D, 0x20});

    // Two dies of one wafer that differ only in X/Y (the firmware before this used bytes 0x0E-0x15:
    // these two had the same id).
    uint8_t b[UID_ROW_BYTES];
    memcpy(b, a, sizeof b);
    b[8] = 0x20, b[9] = 0x1D;  // X and Y swapped
    expect_differ("X and Y swapped", a, b);
    memcpy(b, a, sizeof b);
    b[9] = 0x21;  // the neighbour in X
    expect_differ("neighbour in X", a, b);
    memcpy(b, a, sizeof b);
    b[8] = 0x1C;  // the neighbour in Y
    expect_differ("neighbour in Y", a, b);
    memcpy(b, a, sizeof b);
    b[7] = 0x0D;  // the next wafer, same position
    expect_differ("next wafer", a, b);
    memcpy(b, a, sizeof b);
    b[5] = 0x35;  // the last lot character
    expect_differ("lot's last byte", a, b);
    // Two lots whose first and last characters trade places.
    memcpy(b, a, sizeof b);
    b[0] = a[5], b[5] = a[0];
    expect_differ("lot's first and last bytes swapped", a, b);

    // Every position on every wafer of a lot: all distinct (wafer, X and Y are kept whole).
    static uint8_t seen[1 << 10];  // a bit per (wafer 0-31, Y and X in 16 steps each): 2^13 bits
    uint8_t row[UID_ROW_BYTES], id[8];
    memcpy(row, a, sizeof row);
    unsigned collisions = 0;
    for (unsigned w = 0; w < 32; w++)
        for (unsigned y = 0; y < 16; y++)
            for (unsigned x = 0; x < 16; x++) {
                row[7] = (uint8_t)w, row[8] = (uint8_t)(y * 16), row[9] = (uint8_t)(x * 16 + 1);
                uid_from_signature(row, id);
                unsigned key = (unsigned)id[5] << 8 | (id[6] >> 4) << 4 | id[7] >> 4;
                if (id[5] != w || id[6] != row[8] || id[7] != row[9]) collisions++;
                if (seen[key >> 3] & (1 << (key & 7))) collisions++;
                seen[key >> 3] |= (uint8_t)(1 << (key & 7));
            }
    if (collisions) {
        failures++;
        printf("FAIL positions: %u ids not distinct or not kept\n", collisions);
    }

    // The reserved byte is not part of the id.
    memcpy(b, a, sizeof b);
    b[6] = 0xFF;
    expect_id("reserved byte ignored", b, (const uint8_t[8]){0x1B, 0x37, 0x33, 0x34, 0x31, 0x0C, 0x1D, 0x20});

    // A clone without a serial number (every byte 0xFF).
    uint8_t ff[UID_ROW_BYTES];
    memset(ff, 0xFF, sizeof ff);
    expect_id("erased row", ff, (const uint8_t[8]){0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF});

    printf("uid host test: %s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
