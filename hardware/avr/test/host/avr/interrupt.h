// Host stand-in for <avr/interrupt.h> (host tests only): the host runs the interrupt between main-loop
// steps (test/replay.c), never inside them, so masking is a no-op.
// SPDX-License-Identifier: Apache-2.0
#ifndef HOST_AVR_INTERRUPT_H
#define HOST_AVR_INTERRUPT_H

#define cli()
#define sei()

#endif
