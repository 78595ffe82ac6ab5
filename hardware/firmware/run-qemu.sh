#!/usr/bin/env bash
# Boots the firmware on QEMU's netduinoplus2 (STM32F405) with USART1 on a pseudo-terminal, and prints
# the terminal's path as its first line. Runs until interrupted (Ctrl-C or SIGTERM), then cleans up.
#
#   hardware/firmware/run-qemu.sh [--motor erm|erm-hbridge|lra] [--clock-near-wrap|--inject-overrun|--fault-at-boot] [--trace FILE] [--dir DIR]
#   motorbreath --port <the printed path>
#
# --trace FILE       writes QEMU's log of peripheral register writes (timer compare registers included)
# --clock-near-wrap  boots the test build whose clock counter wraps 15 s after boot (build.sh --clock-near-wrap)
# --inject-overrun   boots the test build that loses its 100th received byte to an overrun (build.sh --inject-overrun)
# --fault-at-boot    boots the test build that faults before its watchdog runs (build.sh --fault-at-boot)
# The UART goes through a unix socket and socat, a stable path that reopens instantly (QEMU's own
# -serial pty loses bytes until a reader connects).
# SPDX-License-Identifier: Apache-2.0
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
motor=erm
variant=()
suffix=""
trace=""
dir=""
while [ $# -gt 0 ]; do
    case "$1" in
        --motor) motor="$2"; shift 2 ;;
        --trace) trace="$2"; shift 2 ;;
        --clock-near-wrap) variant=(--clock-near-wrap); suffix=-nearwrap; shift ;;
        --inject-overrun) variant=(--inject-overrun); suffix=-overrun; shift ;;
        --fault-at-boot) variant=(--fault-at-boot); suffix=-fault; shift ;;
        --dir) dir="$2"; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run-qemu.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
for tool in qemu-system-arm socat; do
    command -v "$tool" >/dev/null || { echo "run-qemu.sh: $tool not found (apt-get install qemu-system-arm socat)" >&2; exit 1; }
done

elf="$here/build/qemu-$motor$suffix/motorbreath.elf"
"$here/build.sh" --board qemu --motor "$motor" ${variant[@]+"${variant[@]}"} >&2

dir="${dir:-$(mktemp -d /tmp/motorbreath-qemu.XXXXXX)}"
mkdir -p "$dir"
sock="$dir/uart.sock"
port="$dir/board"
rm -f "$sock" "$port"

qemu_args=(-M netduinoplus2 -nographic -monitor none -kernel "$elf"
    -chardev "socket,id=u0,path=$sock,server=on,wait=off" -serial chardev:u0)
if [ -n "$trace" ]; then
    qemu_args+=(-trace "memory_region_ops_write" -msg timestamp=on -D "$trace")
fi

pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -f "$sock" "$port"
}
trap cleanup EXIT
trap 'exit 0' INT TERM

qemu-system-arm "${qemu_args[@]}" </dev/null >"$dir/qemu.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.05; done
[ -S "$sock" ] || { echo "run-qemu.sh: QEMU did not start (see $dir/qemu.log)" >&2; cat "$dir/qemu.log" >&2; exit 1; }
socat "PTY,link=$port,rawer" "UNIX-CONNECT:$sock" &
pids+=($!)
for _ in $(seq 100); do [ -e "$port" ] && break; sleep 0.05; done
[ -e "$port" ] || { echo "run-qemu.sh: socat did not create $port" >&2; exit 1; }
echo "$port"
wait -n "${pids[@]}" || true
