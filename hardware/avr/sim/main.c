// motorbreath-avr-sim: runs the ATmega328P firmware in simavr at the wall clock's pace, with UART0 on a
// new pseudo-terminal and the PWM pins recorded.
// SPDX-License-Identifier: Apache-2.0
//
//   motorbreath-avr-sim --elf build/erm/motorbreath-avr.elf [--record FILE] [--fast] [--keep-nice]
//                       [--old-bootloader] [--rx-error-at N] [--accel none|sine|motor]
//   motorbreath-avr-sim --bootloader BOOT.hex [--elf APP.elf] [--dump-flash FILE] [--spoil-page N]
//                       [--no-auto-reset] [--match-baud] [other options as above]
//
// Prints the pty path as the first line on stdout (give it to motorbreath --port), then runs until
// SIGTERM, SIGINT or SIGHUP (or its parent dies), finishing the record file and printing on stderr how
// far the simulation fell behind the wall clock and the firmware's peak stack use. --fast runs without
// pacing (for tests that need no host). --old-bootloader models a Nano with the old bootloader
// (ATmegaBOOT built without WATCHDOG_MODS): after a watchdog reset the chip starts it with the watchdog
// still running at 16 ms (WDRF forces WDE on), and it neither clears nor feeds it, so the chip resets
// every 16 ms until unplugged. The harness records `bootloop` and stops running the firmware: the pins
// are inputs (low), the UART silent. Without the option a reset starts the firmware at once, as Optiboot
// (Uno, new Nano) does; the firmware's .init3 code then turns the watchdog off. --rx-error-at N: the Nth
// byte the firmware reads from the UART comes with a framing error (FE0; rx_error.c). --accel puts an
// emulated ADXL345 on the SPI port (adxl345.h): `sine` a fixed 175 Hz waveform, `motor` one that follows
// the duty at D9 like an ERM; without it (`none`) the bus has no part and the firmware clears bit 4.
//
// --bootloader runs a real bootloader instead of the model (boot.c): the hex goes into flash at its own
// address (Debian's arduino-core-avr: optiboot/optiboot_atmega328.hex at 0x7E00, 115200 baud;
// atmega/ATmegaBOOT_168_atmega328.hex at 0x7800, 57600 baud) and every reset starts there, as with BOOTRST
// programmed; the flash is otherwise erased (0xFF) or holds --elf. The chip powers up with PORF (optiboot
// then starts the application at once). Auto-reset: a host opening the pty while nobody had it open
// resets the MCU with EXTRF, as an Arduino's USB-serial adapter raising DTR does (a pty has no DTR: the
// harness counts the opens and closes of the pty's node with inotify); so avrdude -c arduino finds the bootloader listening, and
// every later open restarts the board through its bootloader (wait for the firmware's INFO). A host that
// keeps the port open is not reset again; SIGUSR1 presses the reset button. --no-auto-reset: opening
// resets nothing (the 10 uF capacitor from RESET to GND). --match-baud: the host's rate (its termios) and
// the UART's (UBRR0, U2X0) must agree as on a wire, else bytes arrive garbled both ways (uart_bridge.c);
// set the pty's speed (avrdude -b does). --dump-flash FILE writes the 32 KB flash at exit (raw);
// --spoil-page N makes the SPM write of flash page N (byte address / 128) store one bit wrong.
#define _GNU_SOURCE
#include <inttypes.h>
#include <signal.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "adxl345.h"
#include "boot.h"
#include "pins.h"
#include "record.h"
#include "rx_error.h"
#include "timer2.h"
#include "uart_bridge.h"
#include "watchdog.h"

#define F_CPU 16000000u
#define SLICE_CYCLES 1600u  // 100 us: the UART is serviced and the wall clock checked this often
#define PAINT 0xC5          // the firmware paints free RAM with this at boot (fault.c)

static volatile sig_atomic_t stop, reset_button;
static void on_signal(int sig) { (void)sig, stop = 1; }
static void on_usr1(int sig) { (void)sig, reset_button = 1; }

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_until_ns(uint64_t t) {
    struct timespec ts = {(time_t)(t / 1000000000u), (long)(t % 1000000000u)};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

// simavr's log goes to stderr; stdout carries only the pty path.
static void logger(avr_t *avr, const int level, const char *format, va_list ap) {
    if (!avr || level <= avr->log) vfprintf(stderr, format, ap);
}

// The firmware sleeps between interrupts: simavr skips the idle cycles (counted here, to report how busy
// the MCU was) and we pace in the main loop.
static uint64_t idle_cycles;
static void no_sleep(avr_t *avr, avr_cycle_count_t how_long) { (void)avr, idle_cycles += how_long + 1; }

// --old-bootloader: a watchdog reset (simavr resets only for the watchdog here) ends in the boot loop.
static int old_bootloader, boot_loop;
static void on_reset(avr_io_t *io) {
    if (!old_bootloader) return;
    boot_loop = 1;
    record_line("bootloop", io->avr->cycle, -1);
}
static avr_io_t bootloader_hook = {.kind = "motorbreath-bootloader", .reset = on_reset};

static void usage(void) {
    fprintf(stderr, "usage: motorbreath-avr-sim --elf FIRMWARE.elf [--record FILE] [--fast] [--keep-nice] [--old-bootloader] [--rx-error-at N] [--accel none|sine|motor]\n"
                    "       motorbreath-avr-sim --bootloader BOOT.hex [--elf APP.elf] [--dump-flash FILE] [--spoil-page N] [--no-auto-reset] [--match-baud] [...]\n");
    exit(2);
}

// Bytes of RAM the stack has reached: from RAMEND down to the first long run of untouched paint.
static unsigned stack_peak(avr_t *avr) {
    unsigned run = 0;
    for (unsigned a = avr->ramend; a >= 0x100; a--) {
        run = avr->data[a] == PAINT ? run + 1 : 0;
        if (run == 16) return avr->ramend - (a + 15);
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *elf = NULL, *rec = NULL, *boot = NULL, *dump = NULL;
    int fast = 0, keep_nice = 0, auto_reset = 1, match_baud = 0, spoil_page = -1;
    unsigned rx_error_at = 0;
    int accel = ACCEL_NONE;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--elf") && i + 1 < argc) elf = argv[++i];
        else if (!strcmp(argv[i], "--record") && i + 1 < argc) rec = argv[++i];
        else if (!strcmp(argv[i], "--fast")) fast = 1;
        else if (!strcmp(argv[i], "--keep-nice")) keep_nice = 1;
        else if (!strcmp(argv[i], "--old-bootloader")) old_bootloader = 1;
        else if (!strcmp(argv[i], "--bootloader") && i + 1 < argc) boot = argv[++i];
        else if (!strcmp(argv[i], "--dump-flash") && i + 1 < argc) dump = argv[++i];
        else if (!strcmp(argv[i], "--spoil-page") && i + 1 < argc) spoil_page = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-auto-reset")) auto_reset = 0;
        else if (!strcmp(argv[i], "--match-baud")) match_baud = 1;
        else if (!strcmp(argv[i], "--rx-error-at") && i + 1 < argc) rx_error_at = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--accel") && i + 1 < argc) {
            const char *a = argv[++i];
            if (!strcmp(a, "none")) accel = ACCEL_NONE;
            else if (!strcmp(a, "sine")) accel = ACCEL_SINE;
            else if (!strcmp(a, "motor")) accel = ACCEL_MOTOR;
            else usage();
        } else usage();
    }
    if ((!elf && !boot) || (boot && old_bootloader)) usage();

    // A test runner may start us with signals blocked; and we must not outlive it.
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_UNBLOCK, &all, NULL);
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    struct sigaction usr1 = {.sa_handler = on_usr1};
    sigaction(SIGUSR1, &usr1, NULL);
    signal(SIGPIPE, SIG_IGN);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    // A simulator starved of CPU is a board whose clock stalls, which no real board does: take normal
    // priority back from a niced test runner when allowed (root or CAP_SYS_NICE). It needs about a tenth
    // of one core. --keep-nice leaves the inherited priority.
    if (!keep_nice && getpriority(PRIO_PROCESS, 0) > 0) setpriority(PRIO_PROCESS, 0, 0);

    avr_global_logger_set(logger);
    static elf_firmware_t fw;
    if (elf && elf_read_firmware(elf, &fw)) {
        fprintf(stderr, "motorbreath-avr-sim: cannot read %s\n", elf);
        return 1;
    }
    strcpy(fw.mmcu, "atmega328p");
    fw.frequency = F_CPU;
    avr_t *avr = avr_make_mcu_by_name(fw.mmcu);
    if (!avr || avr_init(avr)) {
        fprintf(stderr, "motorbreath-avr-sim: simavr has no atmega328p\n");
        return 1;
    }
    avr->log = LOG_ERROR;
    avr->sleep = no_sleep;
    if (record_open(rec)) {
        fprintf(stderr, "motorbreath-avr-sim: cannot write %s\n", rec);
        return 1;
    }
    if (elf) avr_load_firmware(avr, &fw);
    else avr->frequency = F_CPU;
    if (boot && boot_load(avr, boot)) {
        fprintf(stderr, "motorbreath-avr-sim: cannot load the bootloader %s\n", boot);
        return 1;
    }
    if (boot && boot_watch_spm(avr, spoil_page)) {
        fprintf(stderr, "motorbreath-avr-sim: simavr has no self-programming for this MCU\n");
        return 1;
    }
    if (boot) boot_power_on(avr);
    const char *pty;
    avr_register_io(avr, &bootloader_hook);
    rx_error_attach(avr, rx_error_at);
    if (pins_attach(avr) || timer2_attach(avr) || adxl345_attach(avr, accel) || bridge_open(avr, &pty)) {
        fprintf(stderr, "motorbreath-avr-sim: cannot set up the pins or the pty\n");
        return 1;
    }
    bridge_match_rates(match_baud);
    printf("%s\n", pty);
    fflush(stdout);

    uint64_t start_ns = now_ns(), start_cycle = avr->cycle, last_flush = start_ns, last_wall = 0;
    uint64_t max_behind_ns = 0, busy_ns = 0, prev_cycle = avr->cycle, prev_wall = start_ns;
    int prev_written = 1;
    int state = cpu_Running;
    while (!stop && state != cpu_Done && state != cpu_Crashed) {
        if (boot_loop) {  // the chip resets for ever: nothing runs, the host's bytes go nowhere
            bridge_service();
            record_flush();
            usleep(2000);
            continue;
        }
        uint64_t target = avr->cycle + SLICE_CYCLES, t0 = now_ns();
        while (avr->cycle < target && state != cpu_Done && state != cpu_Crashed) state = avr_run(avr);
        watchdog_check(avr);
        uint64_t sim_ns = (avr->cycle - start_cycle) * 1000u / (F_CPU / 1000000u);
        uint64_t wall = now_ns();
        // The cycle <-> wall clock map: the slice's last cycle with the time it was reached, before its
        // bytes go out (so the host cannot have seen them earlier); every 10 ms, and every slice while
        // the simulation is behind (it then runs in bursts).
        // (When it has just fallen behind, the previous slice's point goes in too: the stall lies between.)
        int behind = wall - start_ns > sim_ns + 100000u;
        if (behind && !prev_written) record_wall(prev_cycle, prev_wall);
        prev_written = wall - last_wall >= 10000000u || behind;
        if (prev_written) {
            record_wall(avr->cycle, wall);
            last_wall = wall;
        }
        prev_cycle = avr->cycle;
        prev_wall = wall;
        bridge_service();
        if (boot && ((auto_reset && bridge_client_opened()) || reset_button)) {
            reset_button = 0;
            boot_external_reset(avr);
            bridge_drop_input();
        }
        busy_ns += wall - t0;
        if (!fast) {
            if (sim_ns > wall - start_ns) sleep_until_ns(start_ns + sim_ns);
            else if (wall - start_ns - sim_ns > max_behind_ns) max_behind_ns = wall - start_ns - sim_ns;
        }
        if (wall - last_flush > 20000000u) {
            record_flush();
            last_flush = wall;
        }
    }
    bridge_close();
    record_close();
    boot_report(stderr);
    if (dump && boot_dump(avr, dump)) fprintf(stderr, "motorbreath-avr-sim: cannot write %s\n", dump);
    double simulated = (double)(avr->cycle - start_cycle) / F_CPU;
    fprintf(stderr, "motorbreath-avr-sim: %.3f s simulated in %.3f s of CPU, at most %.1f ms behind the wall clock; "
            "MCU busy %.1f %%, stack peak %u B, nice %d%s\n", simulated, busy_ns / 1e9, max_behind_ns / 1e6,
            100.0 - 100.0 * idle_cycles / (double)(avr->cycle - start_cycle), stack_peak(avr),
            getpriority(PRIO_PROCESS, 0),
            state == cpu_Crashed ? ", the MCU crashed" : "");
    return state == cpu_Crashed ? 1 : 0;
}
