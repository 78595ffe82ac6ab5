// Host stand-in for <avr/pgmspace.h> (host tests only): program memory is ordinary memory.
// SPDX-License-Identifier: Apache-2.0
#ifndef HOST_AVR_PGMSPACE_H
#define HOST_AVR_PGMSPACE_H

#include <string.h>

#define PROGMEM
#define memcpy_P memcpy

#endif
