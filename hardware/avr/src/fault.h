// The fault path: whatever goes wrong in the firmware ends with the motor outputs low and a reset.
#ifndef FAULT_H
#define FAULT_H

// Watchdog (250 ms; its first timeout turns the outputs off, the second resets) and the stack guard.
void fault_init(void);
// Once per main-loop pass: feeds the watchdog; a stack grown into the variables is a fault.
void fault_check(void);

#endif
