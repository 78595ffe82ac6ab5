#!/bin/sh
# Prints a firmware's flash and RAM use: size.sh VARIANT ELF
# Flash = .text + .data (the initial values live in flash); RAM = .data + .bss + .noinit, the rest of the
# ATmega328P's 2048 bytes is the stack. 32256 bytes of flash are usable under optiboot (Uno, new Nano),
# 30720 under the old Nano bootloader.
# SPDX-License-Identifier: Apache-2.0
set -eu
variant=$1
elf=$2
avr-size -A "$elf" | awk -v v="$variant" '
    $1 == ".text" { text = $2 } $1 == ".data" { data = $2 } $1 == ".bss" { bss = $2 } $1 == ".noinit" { noinit = $2 }
    END {
        flash = text + data; ram = data + bss + noinit
        printf "%-12s flash %5d B of 32256 (%4.1f %%)   RAM %4d B of 2048 static (%4.1f %%), %d B left for the stack\n",
               v, flash, 100 * flash / 32256, ram, 100 * ram / 2048, 2048 - ram
    }'
