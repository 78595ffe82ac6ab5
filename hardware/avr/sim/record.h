// The harness's record file: one text line per event, each stamped with the simulated CPU cycle.
//
//   t1 <cycle>            Timer1 started: board tick 0 is this cycle (the firmware's clock is Timer1)
//   pA <cycle> <0|1>      pin OC1A (PB1, Arduino D9) changed level; pB for OC1B (PB2, D10)
//   rx <cycle> <hex>      bytes from the host entered UART0's receiver (simavr then delivers them to
//                         the firmware one byte time apart)
//   tx <cycle> <hex>      a frame the firmware transmitted (delimiter included), at its last byte
//   t0 <cycle>            the first byte of the next `tx` frame left the UART at this cycle
//   reset <cycle>         the MCU restarted (watchdog)
//   extreset <cycle>      that reset was its RESET pin (--bootloader: a host opened the pty, or SIGUSR1)
//   spoiled <cycle> <page>  --spoil-page: that page's SPM write stored one bit wrong
//   spi <cycle> <mosi> <miso>  one SPI transfer with the accelerometer's chip select (PB0) low, from the
//                         cycle it went low: the bytes the firmware sent and those it got back, in hex
//   w <cycle> <ns>        the simulation reached this cycle at this CLOCK_MONOTONIC time (every 10 ms,
//                         and every 100 us while it is catching up after falling behind)
//
// Lines are appended in the order the events are simulated; a reader should not assume more.
// SPDX-License-Identifier: Apache-2.0
#ifndef RECORD_H
#define RECORD_H

#include <stdint.h>

int record_open(const char *path);  // 0 on success; a NULL path records nothing
void record_line(const char *kind, uint64_t cycle, int value);  // value < 0: none
void record_wall(uint64_t cycle, uint64_t ns);
void record_bytes(const char *kind, uint64_t cycle, const uint8_t *bytes, int n);
void record_spi(uint64_t cycle, const uint8_t *mosi, const uint8_t *miso, int n);
void record_flush(void);
void record_close(void);

#endif
