// UART0 <-> pseudo-terminal (see uart_bridge.h).
//
// A fresh pty per run (posix_openpt): parallel harnesses never share a name. The slave side is set to
// raw mode once, so the line discipline neither echoes nor translates bytes before a host opens it.
// While no host has the slave open, reads on the master fail (EIO): nothing arrives then, and bytes the
// board sends wait in the slave's input queue like bytes in a USB-serial adapter's buffer.
//
// Receive pacing: bytes go into simavr's 64-entry UART input FIFO only while it has room, and simavr
// delivers them to the firmware one byte time apart (the rate the firmware set in UBRR0).
//
// A host opening the slave while nobody has it open is the Arduino's auto-reset (bridge_client_opened).
// The opens and closes come from inotify on the slave's node: the master's POLLHUP flag, looked at
// every 100 us, missed a host closing and reopening in between (1 of 3 runs of flash-test's case e). With bridge_match_rates, the host's rate (the slave's termios, which a tcgetattr on the
// master reads on Linux) and the MCU's (UBRR0, U2X0) must agree as on a wire: each byte crosses as a
// receiver at the other rate samples it (resample), so a rate more than about 5 % off garbles every byte.
// SPDX-License-Identifier: Apache-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/inotify.h>
#include <simavr/avr_uart.h>
#include <simavr/sim_io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "record.h"
#include "uart_bridge.h"

#define QUEUE 65536

static struct {
    avr_t *avr;
    avr_uart_t *uart;
    avr_irq_t *input;
    int master;
    char path[64];
    uint8_t in[QUEUE];  // host -> board, not yet in the UART's FIFO
    size_t in_head, in_len;
    uint8_t out[QUEUE];  // board -> host, not yet written to the pty
    size_t out_len;
    uint8_t frame[256];  // the frame being transmitted, for the record
    size_t frame_len;
    int notify;       // inotify on the slave's node
    int openers;      // the slave's open descriptions, as inotify counted them
    int match_rates;  // bridge_match_rates
    double host;      // the host's rate at the last look (0: unknown, or not matching rates)
    uint64_t next_rx; // with match_rates: the cycle the next host byte has fully arrived on the wire
} b;

enum { UCSR0A_ = 0xC0, UBRR0L_ = 0xC4, UBRR0H_ = 0xC5, U2X0 = 0x02 };

static double mcu_baud(void) {
    unsigned ubrr = (b.avr->data[UBRR0H_] & 0x0F) << 8 | b.avr->data[UBRR0L_];
    return b.avr->frequency / ((b.avr->data[UCSR0A_] & U2X0 ? 8.0 : 16.0) * (ubrr + 1));
}

// The host's rate, from the slave's termios; 0 when unknown (then bytes cross unchanged).
static double host_baud(void) {
    static const struct { speed_t code; double baud; } rates[] = {
        {B9600, 9600}, {B19200, 19200}, {B38400, 38400}, {B57600, 57600}, {B115200, 115200},
        {B230400, 230400}, {B500000, 500000}, {B1000000, 1000000}};  // (others, BOTHER: unknown)
    struct termios t;
    if (tcgetattr(b.master, &t)) return 0;
    speed_t code = cfgetospeed(&t);
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        if (rates[i].code == code) return rates[i].baud;
    return 0;
}

// The byte a receiver at rate rx reads from one 8N1 frame sent at rate tx, the line idle after it: from
// the start bit's falling edge it samples the middle of each of its own bit times.
static uint8_t resample(uint8_t v, double tx, double rx) {
    if (tx <= 0 || rx <= 0) return v;
    uint8_t out = 0;
    for (int k = 1; k <= 8; k++) {
        int bit = (int)((k + 0.5) * tx / rx);  // the sender's bit under the sample: 0 start, 1-8 data, then 1s
        int level = bit == 0 ? 0 : bit <= 8 ? (v >> (bit - 1)) & 1 : 1;
        out |= (uint8_t)(level << (k - 1));
    }
    return out;
}

// simavr's UART input FIFO (a ring of uart_fifo_fifo_size entries, one kept free) has no room.
static int fifo_full(void) {
    return ((b.uart->input.write + 1) & (uart_fifo_fifo_size - 1)) == b.uart->input.read;
}

static void on_output(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq, (void)param;
    if (b.out_len < QUEUE) b.out[b.out_len++] = resample((uint8_t)value, mcu_baud(), b.host);  // else the host is not reading: dropped
    // The record gets each frame the firmware sends, stamped with the cycles of its first byte and of its
    // delimiter (a frame's bytes need not leave evenly: the transmitter waits while interrupts are off).
    if (b.frame_len == 0) record_line("t0", b.avr->cycle, -1);
    if (b.frame_len < sizeof b.frame) b.frame[b.frame_len++] = (uint8_t)value;
    if (value == 0) {
        record_bytes("tx", b.avr->cycle, b.frame, b.frame_len);
        b.frame_len = 0;
    }

}

static avr_uart_t *find_uart0(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next)
        if (!strcmp(io->kind, "uart") && ((avr_uart_t *)io)->name == '0') return (avr_uart_t *)io;
    return NULL;
}

int bridge_open(avr_t *avr, const char **path) {
    memset(&b, 0, sizeof b);
    b.notify = -1;
    b.avr = avr;
    b.uart = find_uart0(avr);
    if (!b.uart) return -1;
    // No sleeping when the firmware polls the status register, no copy of its output in simavr's log.
    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    b.input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), on_output, NULL);

    b.master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (b.master < 0 || grantpt(b.master) || unlockpt(b.master) || ptsname_r(b.master, b.path, sizeof b.path))
        return -1;
    int slave = open(b.path, O_RDWR | O_NOCTTY);
    if (slave < 0) return -1;
    struct termios t;
    tcgetattr(slave, &t);
    cfmakeraw(&t);
    tcsetattr(slave, TCSANOW, &t);
    close(slave);
    // Without inotify (its per-user limit reached) nothing resets on an open; the rest works.
    b.notify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (b.notify >= 0 && inotify_add_watch(b.notify, b.path, IN_OPEN | IN_CLOSE) < 0) close(b.notify), b.notify = -1;
    if (b.notify < 0) fprintf(stderr, "motorbreath-avr-sim: no inotify: opening the pty resets nothing\n");
    *path = b.path;
    return 0;
}

void bridge_service(void) {
    // host -> board
    if (b.in_len < QUEUE / 2) {
        uint8_t buf[4096];
        ssize_t n = read(b.master, buf, sizeof buf);
        for (ssize_t i = 0; i < n; i++) b.in[(b.in_head + b.in_len++) % QUEUE] = buf[i];
    }
    uint8_t fed[64];
    int n_fed = 0;
    double mcu = 0;
    if (b.match_rates) b.host = host_baud(), mcu = mcu_baud();
    // With rates matched the host's bytes also arrive at its rate (10 bits each), not as fast as simavr
    // takes them: its receiver lets the firmware read a filled FIFO back to back (measured 20.4 kB/s
    // at 117647 baud, whose wire carries at most 11.8 kB/s).
    double wire = b.host > 0 ? b.host : mcu;
    uint64_t frame = wire > 0 ? (uint64_t)(10.0 * b.avr->frequency / wire) : 0;
    if (frame && b.next_rx + frame < b.avr->cycle) b.next_rx = b.avr->cycle - frame;  // an idle line
    while (b.in_len > 0 && !fifo_full() && n_fed < (int)sizeof fed && (!frame || b.next_rx + frame <= b.avr->cycle)) {
        b.next_rx += frame;
        fed[n_fed] = resample(b.in[b.in_head], b.host, mcu);
        avr_raise_irq(b.input, fed[n_fed++]);
        b.in_head = (b.in_head + 1) % QUEUE;
        b.in_len--;
    }
    if (n_fed) record_bytes("rx", b.avr->cycle, fed, n_fed);
    // board -> host
    if (b.out_len > 0) {
        ssize_t n = write(b.master, b.out, b.out_len);
        if (n > 0) {
            memmove(b.out, b.out + n, b.out_len - (size_t)n);
            b.out_len -= (size_t)n;
        } else if (n < 0 && errno != EAGAIN) {
            b.out_len = 0;  // no host: like a line nobody listens to
        }
    }
}

int bridge_client_opened(void) {
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    int opened = 0;
    ssize_t n;
    while (b.notify >= 0 && (n = read(b.notify, buf, sizeof buf)) > 0)
        for (char *p = buf; p < buf + n; p += sizeof(struct inotify_event) + ((struct inotify_event *)p)->len) {
            uint32_t mask = ((struct inotify_event *)p)->mask;
            if (mask & IN_OPEN) opened |= b.openers++ == 0;
            if ((mask & IN_CLOSE) && b.openers > 0) b.openers--;
        }
    return opened;
}

void bridge_drop_input(void) { b.in_len = 0; }

void bridge_match_rates(int on) { b.match_rates = on; }

void bridge_close(void) {
    if (b.notify >= 0) close(b.notify);
    if (b.master > 0) close(b.master);
}
