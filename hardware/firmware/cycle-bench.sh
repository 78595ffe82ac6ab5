#!/usr/bin/env bash
# Times the firmware's main-loop code in QEMU and prints the cycle budget of an STM32F4 at 1 kHz frames and
# 115200 baud: at the F4 build's 84 MHz (Clocks.swift), or at --mhz N (16: the HSI reset clock, a
# stricter bound the tests keep).
#
#   hardware/firmware/cycle-bench.sh [--motor erm|erm-hbridge|lra] [--mhz N] [--raw]
#
# Method: build.sh --cycle-bench runs the main loop's own pass (Sources/MainLoop.swift) on messages and
# frames one at a time (Bench/CycleBench.swift). QEMU runs it with -icount shift=0: one nanosecond of
# virtual time per guest instruction, so TIM5 at 1 GHz (QEMU's timer clock) counts one per instruction,
# exactly. Instructions are not cycles: at 16 MHz (no flash wait states) a Cortex-M4 takes 1 cycle for
# most instructions, 2 for a load or store that does not pipeline, 2-4 for a taken branch, 2-12 for a
# divide (at 84 MHz the flash needs 2 wait states; the ART accelerator's prefetch and caches hide
# them for most fetches, and a miss costs up to 2 more cycles). The budget counts 1.5 cycles per instruction as typical and 2 as a bound, plus 24 cycles of
# exception entry and exit per interrupt. On a real board the same bench counts cycles with DWT CYCCNT
# and prints them on USART2 (PA2, 115200 baud): flash build.sh --board f4 --cycle-bench.
# --raw prints the bench's own lines ("name count average max", instructions) instead of the table.
# SPDX-License-Identifier: Apache-2.0
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
motor=erm
mhz=84
raw=0
while [ $# -gt 0 ]; do
    case "$1" in
        --motor) motor="$2"; shift 2 ;;
        --mhz) mhz="$2"; shift 2 ;;
        --raw) raw=1; shift ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "cycle-bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
command -v qemu-system-arm >/dev/null || { echo "cycle-bench.sh: qemu-system-arm not found (apt-get install qemu-system-arm)" >&2; exit 1; }
"$here/build.sh" --board qemu --motor "$motor" --cycle-bench >&2
elf="$here/build/qemu-$motor-cyclebench/motorbreath.elf"

out="$(mktemp)"
qemu_pid=""
# SIGKILL: a process started from the test runner inherits its blocked signals, SIGTERM among them.
cleanup() { if [ -n "$qemu_pid" ]; then kill -KILL "$qemu_pid" 2>/dev/null || true; wait "$qemu_pid" 2>/dev/null || true; fi; rm -f "$out"; }
trap cleanup EXIT
# The bench prints on the second serial port and ends with "done"; QEMU is stopped then (at most 5 min).
qemu-system-arm -M netduinoplus2 -nographic -monitor none -icount shift=0 -kernel "$elf" \
    -serial null -serial "file:$out" </dev/null >/dev/null 2>&1 &
qemu_pid=$!
for _ in $(seq 3000); do grep -q '^done' "$out" 2>/dev/null && break; kill -0 "$qemu_pid" 2>/dev/null || break; sleep 0.1; done
grep -q '^done' "$out" || { echo "cycle-bench.sh: the bench did not finish:" >&2; cat "$out" >&2; exit 1; }
if [ "$raw" = 1 ]; then cat "$out"; exit 0; fi

awk -v motor="$motor" -v mhz="$mhz" '
    # name count avg max -> avg[name], max[name] (the last line of a name wins)
    NF == 4 { avg[$1] = $3; mx[$1] = $4 }
    function cyc(i, cpi) { return i * cpi }
    function ms(c) { return c / (mhz * 1000) }
    END {
        W = avg["loop.wake"] + avg["loop.arm"] + avg["loop.clock-read"]   # going back to sleep after a pass
        B = avg["rx.byte"] + avg["isr.ring-push"] + avg["loop.byte-wake"]  # a received byte not ending a frame
        TX = avg["isr.ring-push"] + 20                                     # a sent byte: ring pop + handler
        printf "cycle budget, firmware %s build, STM32F4 at %d MHz (instructions measured in QEMU -icount; cycles at 1.5 and 2 per instruction, +24 per interrupt)\n\n", motor, mhz
        printf "%-44s %12s %12s %12s\n", "work", "instructions", "cycles (1.5)", "cycles (2)"
        n = split("pass.frame:a frame (its loop pass; PLAYED every 25 queued),pass.frame-max:worst frame pass (a PLAYED encoded),pass.idle:a loop pass with nothing due,wake:back to sleep (next wake + alarm + clock),rx.byte:a received byte (ISR + collect + wake check),pass.frames-u8-32:FRAMES of 32 u8 frames (46 bytes) + STATUS reply,pass.frames-u8-234:FRAMES of 234 u8 frames (248 bytes) + STATUS,pass.clock-request:CLOCK_REQ + CLOCK reply,pass.heartbeat:HEARTBEAT + STATUS reply", rows, ",")
        for (k = 1; k <= n; k++) {
            split(rows[k], f, ":")
            v = (f[1] == "pass.frame-max") ? mx["pass.frame"] : (f[1] == "wake") ? W : (f[1] == "rx.byte") ? B : avg[f[1]]
            extra = (f[1] == "rx.byte") ? 24 : 0
            printf "%-44s %12d %12d %12d\n", f[2], v, cyc(v, 1.5) + extra, cyc(v, 2) + extra
        }
        # The reference host at 1 kHz: 32 frames per FRAMES (31.25/s), CLOCK_REQ every 20 ms, PLAYED every 25 frames.
        fr = 1000 * (avg["pass.frame"] + W)
        fm = 31.25 * (avg["pass.frames-u8-32"] + W)
        cl = 50 * (avg["pass.clock-request"] + W)
        rxb = 31.25 * 45 + 50 * 11                      # bytes not ending a frame
        rb = rxb * B
        txb = 31.25 * 50 + 50 * 22 + 40 * 30            # STATUS, CLOCK, PLAYED replies
        tb = txb * TX
        ints = rxb + 31.25 + 50 + txb + 1000 + (ce > 0 ? 350 : 0)  # interrupts: bytes in and out, wakes
        # An LRA board also wakes for every carrier edge (2 x 175 Hz), each costing about a frame pass.
        ce = (motor == "lra") ? 350 * (avg["pass.frame"] + W) : 0
        tot = fr + fm + cl + rb + tb + ce
        printf "\n1 kHz frames from the reference host (%d B/s in, %d B/s out), per second:\n", rxb + 81.25, txb
        printf "%-44s %12d %12d %12d\n", "frames (1000)", fr, fr * 1.5, fr * 2
        printf "%-44s %12d %12d %12d\n", "FRAMES messages (31.25)", fm, fm * 1.5, fm * 2
        printf "%-44s %12d %12d %12d\n", "CLOCK exchanges (50)", cl, cl * 1.5, cl * 2
        printf "%-44s %12d %12d %12d\n", "received bytes", rb, rb * 1.5, rb * 2
        printf "%-44s %12d %12d %12d\n", "sent bytes", tb, tb * 1.5, tb * 2
        if (ce > 0) printf "%-44s %12d %12d %12d\n", "LRA carrier edges (350)", ce, ce * 1.5, ce * 2
        printf "%-44s %12d %12d %12d\n", "total (+24 cycles per interrupt)", tot, tot * 1.5 + 24 * ints, tot * 2 + 24 * ints
        printf "%-44s %12s %11.0f%% %11.0f%%\n", sprintf("share of %d,000,000 cycles/s", mhz), "", (tot * 1.5 + 24 * ints) / (mhz * 10000), (tot * 2 + 24 * ints) / (mhz * 10000)
        # The line full at 115200 baud: 11,520 bytes/s of 32-frame FRAMES (250/s), replies limited by the line.
        sm = 250 * (avg["pass.frames-u8-32"] + W) + 250 * 45 * B + fr + 11520 * TX
        si = 11520 * 2 + 250 + 1000
        printf "%-44s %12d %11.0f%% %11.0f%%\n", "line full at 115200 baud (250 FRAMES/s)", sm, (sm * 1.5 + 24 * si) / (mhz * 10000), (sm * 2 + 24 * si) / (mhz * 10000)
        printf "\nLatency: a frame due while a message is handled waits for its pass: %.1f-%.1f ms for a 32-frame FRAMES,\n", ms(cyc(avg["pass.frames-u8-32"], 1.5)), ms(cyc(avg["pass.frames-u8-32"], 2))
        printf "%.1f-%.1f ms for a full 234-frame one (at 1 kHz a frame lasts 1 ms: such frames play late, and PLAYED says so).\n", ms(cyc(avg["pass.frames-u8-234"], 1.5)), ms(cyc(avg["pass.frames-u8-234"], 2))
        # The receive path: USART1 holds one received byte in DR while the next shifts in, so a byte is
        # lost (overrun) when the receive interrupt is held off longer than one character (10 bits).
        # It is held off by the longest masked section, then the other interrupt (SysTick, empty:
        # 12 + 12 cycles entry/exit plus its body) and its own entry (12 cycles) and code up to the DR
        # read (about 10 instructions). Sections masked: the sleep check (+ cpsid and WFI), and pump
        # with two bytes (the most the data register takes on silicon).
        mk = mx["loop.masked"] + 2
        pm = 2 * mx["loop.pump-1"]
        worst = (mk > pm ? mk : pm)
        lat = cyc(worst, 2) + 24 + 4 * 2 + 12 + 10 * 2
        printf "\nReceive latency (worst masked section, all at 2 cycles per instruction): sleep check %d instructions,\n", mk
        printf "pump with 2 bytes %d; bound %d cycles = %.1f us at %d MHz. One character (10 bits) lasts %d cycles at\n", pm, lat, lat / mhz, mhz, mhz * 1e7 / 115200
        printf "115200 baud (the board'\''s rate), %d at 921600; the bound keeps up to %d baud (margin %.0fx at 115200).\n", mhz * 1e7 / 921600, mhz * 1e7 / lat, (mhz * 1e7 / 115200) / lat
        printf "receive-latency-bound-cycles %d\n", lat
    }' "$out"
