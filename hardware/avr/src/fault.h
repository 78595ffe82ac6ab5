// The fault path: whatever goes wrong in the firmware ends with the motor outputs low and a restart.
// SPDX-License-Identifier: Apache-2.0
#ifndef FAULT_H
#define FAULT_H

// Watchdog (250 ms; its interrupt turns the outputs off and restarts) and the stack guard.
void fault_init(void);
// Once per main-loop pass: feeds the watchdog; a stack grown into the variables is a fault.
void fault_check(void);
// Outputs low, watchdog off, and the firmware starts again from its reset vector (not the bootloader's).
void fault_restart(void) __attribute__((noreturn));

#endif
