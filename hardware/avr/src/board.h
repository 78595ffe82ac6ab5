// What this build is: an ATmega328P at 16 MHz (Arduino Uno, Nano, Pro Mini 5 V) and one of three motor
// drivers, chosen by the Makefile with -DVARIANT_ERM, -DVARIANT_ERM_HBRIDGE or -DVARIANT_LRA.
// SPDX-License-Identifier: Apache-2.0
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>

#ifndef F_CPU
#define F_CPU 16000000UL
#endif

// UART0 default: 500000 baud, 8N1. With U2X the divisor is 16 MHz / (8 x 500000) = 4 exactly (UBRR0 = 3),
// so the rate has no error; 1 Mbaud would also be exact but leaves only 160 CPU cycles per received byte,
// too few beside the 20 kHz PWM interrupt. For an adapter that cannot do 500000, build with BAUD=250000
// (UBRR0 = 7, also exact). A rate the 16 MHz clock divides more than 1 % off is refused below: the
// datasheet recommends at most +-1.5 % for the receiver in double-speed mode with 8N1, and the other
// side's error (a ceramic resonator: up to 0.5 %) adds to ours. 115200 would be UBRR0 = 16, 117 647 baud,
// +2.1 %.
#ifndef BAUD
#define BAUD 500000UL
#endif
#define UBRR_VALUE ((F_CPU + 4UL * BAUD) / (8UL * BAUD) - 1)
#define BAUD_REAL (F_CPU / (8UL * (UBRR_VALUE + 1)))
#if BAUD_REAL * 1000 / BAUD > 1010 || BAUD_REAL * 1000 / BAUD < 990
#error "BAUD is more than 1 % off at 16 MHz: use 500000 (the default) or 250000, both exact"
#endif

// Timer1: fast PWM with TOP = ICR1 = 799, no prescaler: 16 MHz / 800 = 20 kHz, 800 duty steps.
// The same counter is the board clock (clock.h): one tick per CPU cycle.
#define PWM_TOP 799u
#define PWM_PERIOD 800u
// INFO pwm_bits: the bits needed to count the duty steps, ceil(log2(800)) = 10, as the STM32 board
// computes it (protocol.md, INFO); 800 steps resolve every 9-bit value, not every 10-bit one.
#define PWM_BITS 10u
#define CLOCK_HZ F_CPU

// Frames the ring holds (a power of two): 256 = 1.02 s at 250 frames/s, the host's 1 s of lead. Slots are
// 16 bits, so that every duty format fits (the H-bridge build brakes with negative i16 values) and
// PLAYED can checksum the raw values as received; 512 of them would leave the stack too little of the
// 2 KB (a u8-only ring could hold 512 frames in the same RAM).
#define FRAME_CAPACITY 256u
#define MIN_FRAME_RATE 50u
#define MAX_FRAME_RATE 1000u

#define FW_MAJOR 0
#define FW_MINOR 1
#define FW_PATCH 0

// MOTOR_ERM/LRA and the CAP_* capability bits: wire_gen.h (generated from the Swift wire tables).
#include "wire_gen.h"

// The drive ceiling (limit.h): the motor's rated voltage over the 5 V drive supply, from the bill of materials
// in hardware/avr/README.md, with a bounded overdrive for the host's start and brake kicks (the same values
// as the STM32 board's Board.swift). A motor rated differently: set MOTOR_RATED_MV here.
#define SUPPLY_MV 5000u

#if defined(VARIANT_LRA)
#define MOTOR_KIND MOTOR_LRA
#define HBRIDGE 1
#define CAPABILITIES (CAP_REVERSE | CAP_LRA_CARRIER | CAP_LIMITS)
#define MOTOR_RATED_MV 2000u  // 2 V rms coin LRA: ceiling 40 %
#define OVERDRIVE_MS 20u
#define RECOVERY_MS 200u
#define LRA_DEFAULT_DHZ 1750u  // 175 Hz, a common 10 mm coin LRA; set yours here
#define BOARD_NAME "motorbreath-avr-lra"
#elif defined(VARIANT_ERM_HBRIDGE)
#define MOTOR_KIND MOTOR_ERM
#define HBRIDGE 1
#define CAPABILITIES (CAP_REVERSE | CAP_LIMITS)
#define MOTOR_RATED_MV 3000u  // 3 V coin ERM: ceiling 60 %
#define OVERDRIVE_MS 50u
#define RECOVERY_MS 500u
#define LRA_DEFAULT_DHZ 0u
#define BOARD_NAME "motorbreath-avr-erm-hbridge"
#elif defined(VARIANT_ERM)
#define MOTOR_KIND MOTOR_ERM
#define HBRIDGE 0
#define CAPABILITIES CAP_LIMITS
#define MOTOR_RATED_MV 3000u  // 3 V coin ERM: ceiling 60 %
#define OVERDRIVE_MS 50u
#define RECOVERY_MS 500u
#define LRA_DEFAULT_DHZ 0u
#define BOARD_NAME "motorbreath-avr-erm"
#else
#error "build with -DVARIANT_ERM, -DVARIANT_ERM_HBRIDGE or -DVARIANT_LRA (the Makefile does)"
#endif

// Pins: OC1A = PB1 = Arduino D9 (MOSFET gate, or DRV8833 AIN1); OC1B = PB2 = D10 (DRV8833 AIN2).
#define PIN_DRIVE_A 1  // PB1
#define PIN_DRIVE_B 2  // PB2

#endif
