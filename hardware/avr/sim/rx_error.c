// Receive-error injection (see rx_error.h). simavr's UART never sets FE0 or DOR0 (it delivers every byte
// intact and one byte time apart, and clears the error bits itself), so the firmware's error path cannot
// otherwise run. This hooks UCSR0A and UDR0 reads: while the byte in UDR0 is the nth, UCSR0A reads with
// FE0 set (the datasheet's order: the status belongs to the byte in UDR0 and is read before it).
// SPDX-License-Identifier: Apache-2.0
#include <simavr/sim_io.h>
#include <stddef.h>

#include "rx_error.h"

enum { UCSR0A_ = 0xC0, UDR0_ = 0xC6, FE0 = 0x10 };

static struct {
    unsigned nth, reads;  // reads: bytes the firmware has taken from UDR0
    avr_io_read_t udr, csr;
    void *udr_param, *csr_param;
} e;

static uint8_t udr_read(avr_t *avr, avr_io_addr_t addr, void *param) {
    (void)param;
    e.reads++;
    return e.udr ? e.udr(avr, addr, e.udr_param) : avr->data[addr];
}

static uint8_t csr_read(avr_t *avr, avr_io_addr_t addr, void *param) {
    (void)param;
    uint8_t v = e.csr ? e.csr(avr, addr, e.csr_param) : avr->data[addr];
    return e.reads + 1 == e.nth ? (uint8_t)(v | FE0) : v;
}

void rx_error_attach(avr_t *avr, unsigned nth) {
    if (!nth) return;
    e.nth = nth;
    int u = AVR_DATA_TO_IO(UDR0_), c = AVR_DATA_TO_IO(UCSR0A_);
    e.udr = avr->io[u].r.c;
    e.udr_param = avr->io[u].r.param;
    e.csr = avr->io[c].r.c;
    e.csr_param = avr->io[c].r.param;
    avr->io[u].r.c = udr_read;
    avr->io[u].r.param = NULL;
    avr->io[c].r.c = csr_read;
    avr->io[c].r.param = NULL;
}
