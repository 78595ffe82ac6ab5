// The record file (see record.h): buffered, flushed by the main loop every few tens of milliseconds so
// that a test can read it while the simulation runs.
// SPDX-License-Identifier: Apache-2.0
#include <inttypes.h>
#include <stdio.h>

#include "record.h"

static FILE *out;

int record_open(const char *path) {
    if (!path) return 0;
    out = fopen(path, "w");
    if (!out) return -1;
    setvbuf(out, NULL, _IOFBF, 1 << 16);
    fprintf(out, "# motorbreath-avr-sim record v1: f_cpu 16000000\n");
    return 0;
}

void record_line(const char *kind, uint64_t cycle, int value) {
    if (!out) return;
    if (value < 0) fprintf(out, "%s %" PRIu64 "\n", kind, cycle);
    else fprintf(out, "%s %" PRIu64 " %d\n", kind, cycle, value);
}

void record_bytes(const char *kind, uint64_t cycle, const uint8_t *bytes, int n) {
    if (!out) return;
    fprintf(out, "%s %" PRIu64 " ", kind, cycle);
    for (int i = 0; i < n; i++) fprintf(out, "%02x", bytes[i]);
    fputc('\n', out);
}

void record_spi(uint64_t cycle, const uint8_t *mosi, const uint8_t *miso, int n) {
    if (!out) return;
    fprintf(out, "spi %" PRIu64 " ", cycle);
    for (int i = 0; i < n; i++) fprintf(out, "%02x", mosi[i]);
    fputc(' ', out);
    for (int i = 0; i < n; i++) fprintf(out, "%02x", miso[i]);
    fputc('\n', out);
}

void record_wall(uint64_t cycle, uint64_t ns) {
    if (out) fprintf(out, "w %" PRIu64 " %" PRIu64 "\n", cycle, ns);
}

void record_flush(void) {
    if (out) fflush(out);
}

void record_close(void) {
    if (out) fclose(out);
    out = NULL;
}
