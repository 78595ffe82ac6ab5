// Host stand-in for <avr/boot.h> (host tests only): the signature row reads as its address (reply.c's id).
// SPDX-License-Identifier: Apache-2.0
#ifndef HOST_AVR_BOOT_H
#define HOST_AVR_BOOT_H

#include <stdint.h>

#define boot_signature_byte_get(addr) ((uint8_t)(addr))

#endif
