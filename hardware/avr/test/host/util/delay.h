// Host stand-in for <util/delay.h> (host tests only): a busy wait lets simulated time pass, interrupts
// included (test/replay.c's host_delay_us; the golden test does not wait).
// SPDX-License-Identifier: Apache-2.0
#ifndef HOST_UTIL_DELAY_H
#define HOST_UTIL_DELAY_H

void host_delay_us(unsigned us);
#define _delay_us(us) host_delay_us(us)

#endif
