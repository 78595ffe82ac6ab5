// A real bootloader in the simulated flash (see boot.h).
//
// simavr 1.6 keeps the flash across avr_reset (it clears the registers and RAM only) and starts at
// avr->reset_pc after every reset, so a bootloader at reset_pc sees each reset as on the chip with BOOTRST
// programmed. Its SPM (avr_flash.c) fills a temporary page buffer, erases and writes a page at once (no
// 4.5 ms busy time: SPMEN reads clear on the next instruction), and clears the buffer on RWWSRE; it does
// not enforce the boot section's rules (SPM from the application section works, the RWW section reads
// normally during a write, the lock bits are ignored). Optiboot and ATmegaBOOT follow those rules anyway.
// SPDX-License-Identifier: Apache-2.0
#include <simavr/avr_flash.h>
#include <simavr/sim_io.h>
#include <stdio.h>
#include <string.h>

#include "boot.h"
#include "record.h"
#include "watchdog.h"

enum { MCUSR_ = 0x54, SPMCSR_ = 0x57, R_Z = 30, PORF = 0x01, EXTRF = 0x02, SPMEN = 0x01, PGERS = 0x02, PGWRT = 0x04 };
#define PAGE 128u  // SPM_PAGESIZE of the ATmega328P

static struct {
    uint32_t base;  // the bootloader's first byte address; 0: none loaded
    int spoil_page;
    unsigned erases, writes, spoiled;
    int (*flash_ioctl)(struct avr_io_t *io, uint32_t ctl, void *param);
} s = {.spoil_page = -1};

// Intel hex: data (00), end (01), segment and linear base addresses (02, 04); start addresses (03, 05)
// are skipped. simavr 1.6's read_ihex_chunks refuses record 03, which both Arduino bootloaders carry.
// The lowest address loaded in *low; 0 on success.
static int read_hex(avr_t *avr, const char *path, uint32_t *low) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[600];
    uint32_t base = 0;
    int ok = 0;
    *low = avr->flashend + 1;
    while (!ok && fgets(line, sizeof line, f)) {
        uint8_t r[256];
        unsigned n = 0, sum = 0, v;
        if (line[0] != ':') continue;
        for (char *p = line + 1; n < sizeof r && sscanf(p, "%2x", &v) == 1; p += 2) r[n++] = (uint8_t)v, sum += v;
        if (n < 5 || n != r[0] + 5u || (sum & 0xFF)) break;
        uint32_t addr = base + (r[1] << 8 | r[2]);
        if (r[3] == 0) {
            if (addr + r[0] > avr->flashend + 1) break;
            memcpy(avr->flash + addr, r + 4, r[0]);
            if (addr < *low) *low = addr;
        } else if (r[3] == 1) ok = 1;
        else if (r[3] == 2) base = (uint32_t)(r[4] << 8 | r[5]) << 4;
        else if (r[3] == 4) base = (uint32_t)(r[4] << 8 | r[5]) << 16;
    }
    fclose(f);
    return ok && *low <= avr->flashend ? 0 : -1;
}

int boot_load(avr_t *avr, const char *hex) {
    uint32_t low;
    if (read_hex(avr, hex, &low)) return -1;
    s.base = low;
    avr->reset_pc = avr->pc = low;
    avr->codeend = avr->flashend;
    return 0;
}

// SPM reaches every io's ioctl with AVR_IOCTL_FLASH_SPM; simavr's flash io does the work at once.
static int spm(struct avr_io_t *io, uint32_t ctl, void *param) {
    avr_t *avr = io->avr;
    uint8_t csr = avr->data[SPMCSR_];
    uint32_t z = avr->data[R_Z] | (uint32_t)avr->data[R_Z + 1] << 8;
    int r = s.flash_ioctl(io, ctl, param);
    if (ctl != AVR_IOCTL_FLASH_SPM || !(csr & SPMEN)) return r;
    if (csr & PGERS) s.erases++;
    else if (csr & PGWRT) {
        s.writes++;
        if ((int)(z / PAGE) == s.spoil_page) {
            avr->flash[(z & ~(PAGE - 1)) + 5] ^= 0x10;  // one bit of the page's sixth byte flipped
            s.spoiled++;
            record_line("spoiled", avr->cycle, s.spoil_page);
        }
    }
    return r;
}

int boot_watch_spm(avr_t *avr, int page) {
    for (avr_io_t *io = avr->io_port; io; io = io->next)
        if (!strcmp(io->kind, "flash")) {
            s.spoil_page = page;
            s.flash_ioctl = io->ioctl;
            io->ioctl = spm;
            return 0;
        }
    return -1;
}

void boot_power_on(avr_t *avr) { avr->data[MCUSR_] = PORF; }

// The reset flags stay (only a power-on reset or the program clears them): a chip whose watchdog reset it
// keeps resetting it after the RESET pin too, WDRF forcing the watchdog on.
void boot_external_reset(avr_t *avr) {
    uint8_t flags = avr->data[MCUSR_];
    watchdog_survive_reset(avr);
    avr_reset(avr);
    avr->data[MCUSR_] = flags | EXTRF;
    record_line("extreset", avr->cycle, -1);
}

int boot_dump(avr_t *avr, const char *path) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t n = fwrite(avr->flash, 1, avr->flashend + 1, f);
    return fclose(f) || n != avr->flashend + 1 ? -1 : 0;
}

void boot_report(FILE *out) {
    if (!s.base) return;
    fprintf(out, "motorbreath-avr-sim: bootloader at 0x%04X; SPM: %u page erases, %u page writes (%u B)%s\n", s.base,
            s.erases, s.writes, s.writes * PAGE, s.spoiled ? ", one page spoiled on purpose" : "");
}
