// UART0 <-> pseudo-terminal (see uart_bridge.h).
//
// A fresh pty per run (posix_openpt): parallel harnesses never share a name. The slave side is set to
// raw mode once, so the line discipline neither echoes nor translates bytes before a host opens it.
// While no host has the slave open, reads on the master fail (EIO): nothing arrives then, and bytes the
// board sends wait in the slave's input queue like bytes in a USB-serial adapter's buffer.
//
// Receive pacing: bytes go into simavr's 64-entry UART input FIFO only while it has room, and simavr
// delivers them to the firmware one byte time apart (the rate the firmware set in UBRR0).
// SPDX-License-Identifier: Apache-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <simavr/avr_uart.h>
#include <simavr/sim_io.h>
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
} b;

// simavr's UART input FIFO (a ring of uart_fifo_fifo_size entries, one kept free) has no room.
static int fifo_full(void) {
    return ((b.uart->input.write + 1) & (uart_fifo_fifo_size - 1)) == b.uart->input.read;
}

static void on_output(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq, (void)param;
    if (b.out_len < QUEUE) b.out[b.out_len++] = (uint8_t)value;  // else the host is not reading: dropped
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
    while (b.in_len > 0 && !fifo_full() && n_fed < (int)sizeof fed) {
        fed[n_fed++] = b.in[b.in_head];
        avr_raise_irq(b.input, b.in[b.in_head]);
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

void bridge_close(void) {
    if (b.master > 0) close(b.master);
}
