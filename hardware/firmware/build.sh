#!/usr/bin/env bash
# Builds the reference board firmware: the shared MotorWire and BoardCore sources plus Sources/ compiled
# as one Embedded Swift module, Startup/startup.c, linked with arm-none-eabi-gcc; prints flash and RAM.
#
#   hardware/firmware/build.sh [--board qemu|f4] [--motor erm|erm-hbridge|lra] [--clock-near-wrap|--cycle-bench|--inject-overrun|--fault-at-boot] [--out DIR]
#
# --board qemu       QEMU's netduinoplus2 (STM32F405 at 168 MHz, 20 MHz board clock) - the emulated-board tests
# --board f4         a Black Pill (STM32F401/F411) at 84 MHz from its 25 MHz crystal, or from the HSI without one (the default)
# --clock-near-wrap  test build: the 32-bit clock counter starts 15 s before it wraps (and the board clock 15 s before 2^32)
# --cycle-bench      Bench/CycleBench.swift instead of the main loop: code paths timed, printed on USART2 (cycle-bench.sh)
# --inject-overrun   test build: the 100th received byte is lost as in a USART overrun (Sources/InjectedOverrun.swift)
# --fault-at-boot    test build: a fault right after MotorDrive.start, before the watchdog runs (Main.swift)
# Output: DIR/motorbreath.elf and DIR/motorbreath.bin (default DIR: hardware/firmware/build/BOARD-MOTOR[-nearwrap]).
# Needs: swiftc (Swift 6.2+, with the Embedded Swift libraries) and gcc-arm-none-eabi.
# SPDX-License-Identifier: Apache-2.0
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
board=f4
motor=erm
suffix=""
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --board) board="$2"; shift 2 ;;
        --motor) motor="$2"; shift 2 ;;
        --clock-near-wrap) suffix="-nearwrap"; shift ;;
        --cycle-bench) suffix="-cyclebench"; shift ;;
        --inject-overrun) suffix="-overrun"; shift ;;
        --fault-at-boot) suffix="-fault"; shift ;;
        --out) out="$2"; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

defines=()
case "$board" in
    qemu) defines+=(-D QEMU) ;;
    f4) ;;
    *) echo "build.sh: --board is qemu or f4, not '$board'" >&2; exit 2 ;;
esac
case "$motor" in
    erm) ;;
    erm-hbridge) defines+=(-D DRIVER_HBRIDGE) ;;
    lra) defines+=(-D MOTOR_LRA) ;;
    *) echo "build.sh: --motor is erm, erm-hbridge or lra, not '$motor'" >&2; exit 2 ;;
esac
[ "$suffix" = "-nearwrap" ] && defines+=(-D CLOCK_NEAR_WRAP)
[ "$suffix" = "-overrun" ] && defines+=(-D INJECT_OVERRUN)
[ "$suffix" = "-fault" ] && defines+=(-D FAULT_AT_BOOT)
# The hardware layer; the cycle bench replaces the main loop with its own.
firmware_sources=("$here"/Sources/*.swift)
if [ "$suffix" = "-cyclebench" ]; then
    firmware_sources=()
    for f in "$here"/Sources/*.swift; do [ "$(basename "$f")" = Main.swift ] || firmware_sources+=("$f"); done
    firmware_sources+=("$here"/Bench/*.swift)
fi
out="${out:-$here/build/$board-$motor$suffix}"
mkdir -p "$out"

for tool in swiftc arm-none-eabi-gcc arm-none-eabi-objcopy arm-none-eabi-size; do
    command -v "$tool" >/dev/null || { echo "build.sh: $tool not found (apt-get install gcc-arm-none-eabi; Swift 6.2+ for swiftc)" >&2; exit 1; }
done

cpu=(-mcpu=cortex-m4 -mthumb -mfloat-abi=softfp -mfpu=fpv4-sp-d16)

# One module: the protocol and board logic exactly as the host builds them, plus the hardware layer.
swiftc -target armv7em-none-none-eabi -enable-experimental-feature Embedded -wmo -Osize -parse-as-library \
    -Xfrontend -function-sections -Xfrontend -disable-stack-protector \
    "${defines[@]}" -module-name Firmware -c -o "$out/firmware.o" \
    "$root"/Sources/MotorWire/*.swift "$root"/Sources/BoardCore/*.swift "${firmware_sources[@]}"

arm-none-eabi-gcc "${cpu[@]}" -Os -ffreestanding -fno-tree-loop-distribute-patterns -Wall -Werror \
    -ffunction-sections -fno-short-enums -c -o "$out/startup.o" "$here/Startup/startup.c"

arm-none-eabi-gcc "${cpu[@]}" -nostdlib -nostartfiles -T "$here/link.ld" -Wl,--gc-sections -Wl,-z,noexecstack -Wl,--no-enum-size-warning \
    -Wl,-Map="$out/motorbreath.map" -o "$out/motorbreath.elf" "$out/startup.o" "$out/firmware.o" -lgcc
arm-none-eabi-objcopy -O binary "$out/motorbreath.elf" "$out/motorbreath.bin"

# text+data live in flash; data+bss in RAM (the 8 KB stack reserve is counted apart).
read -r text data bss _ < <(arm-none-eabi-size "$out/motorbreath.elf" | tail -1)
stack=$((8 * 1024))
echo "firmware $board-$motor$suffix: flash $((text + data)) bytes, RAM $((data + bss - stack)) bytes static + $stack stack ($out/motorbreath.elf)"
