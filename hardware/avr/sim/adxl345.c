// The emulated ADXL345 (see adxl345.h).
//
// The bus. simavr 1.6's SPI master does not keep the datasheet's timing (measured: a byte written at
// fosc/4 completed about 1600 cycles later, not 32, and a second write before then replaced the first),
// so this file takes SPDR over and models the master itself, as far as the firmware uses it (polled,
// no SPI interrupt): a write to SPDR with SPE and MSTR set clears SPIF and starts a byte, which ends 8
// SCK periods later (the divider in SPCR/SPSR) with SPIF set and the slave's byte readable in SPDR; a
// read of SPDR clears SPIF. With no part on the bus MISO reads 0 (a floating line).
//
// The part. A transfer is one chip-select low period: byte 0 is the address (bit 7 read, bit 6
// multi-byte: the address counts up), then data bytes in or out. Out of mode 3 the part samples on the
// wrong edges: it takes the address shifted by one bit and its answers come out shifted (high bit 1), so
// DEVID reads 0xF2, not 0xE5. Above 5 MHz SCK it answers 0xFF. The data registers are refreshed at the
// output data rate (BW_RATE) while POWER_CTL's Measure bit is set; a multi-byte read returns one
// coherent sample (the registers do not change under a transfer).
// SPDX-License-Identifier: Apache-2.0
#include <math.h>
#include <simavr/avr_ioport.h>
#include <simavr/sim_cycle_timers.h>
#include <simavr/sim_io.h>
#include <stdio.h>
#include <string.h>

#include "adxl345.h"
#include "pins.h"
#include "record.h"

#define F_CPU 16000000.0
enum { SPCR_ = 0x4C, SPSR_ = 0x4D, SPDR_ = 0x4E };
enum { REG_DEVID = 0x00, REG_BW_RATE = 0x2C, REG_POWER_CTL = 0x2D, REG_DATA_FORMAT = 0x31, REG_DATAX0 = 0x32,
       REG_FIFO_CTL = 0x38 };

static struct {
    avr_t *avr;
    int mode;
    uint8_t received;   // what SPDR reads: the last byte shifted in from MISO
    uint8_t regs[0x40];
    int selected;       // chip select low
    int count;          // bytes of this transfer so far
    uint8_t addr;
    int read, multi;
    uint64_t start;     // cycle chip select went low
    uint8_t mosi[16], miso[16];
    uint8_t answer;     // the byte being shifted out
    // The waveform.
    double speed, phase;  // ACCEL_MOTOR: speed 0...1, the eccentric mass's phase (radians)
    uint64_t last;        // cycle of the last data update
} p;

static int in_mode3(void) { return (p.avr->data[SPCR_] & 0x0C) == 0x0C; }

static unsigned divider(void) {
    static const unsigned d[4] = {4, 16, 64, 128};
    unsigned v = d[p.avr->data[SPCR_] & 3];
    return p.avr->data[SPSR_] & 1 ? v / 2 : v;
}

static int16_t clamp13(double v) { return v > 4095 ? 4095 : v < -4096 ? -4096 : (int16_t)lrint(v); }

// The sample the part converts at `cycle` (counts at 3.9 mg).
static void convert(uint64_t cycle) {
    double t = cycle / F_CPU, x, y, z = 256;
    if (p.mode == ACCEL_SINE) {
        x = 400 * sin(2 * M_PI * 175 * t);
        y = 200 * cos(2 * M_PI * 175 * t);
    } else {
        double dt = (cycle - p.last) / F_CPU;
        p.speed += (pins_duty(0) - p.speed) * (1 - exp(-dt / 0.040));
        p.phase = fmod(p.phase + 2 * M_PI * 200 * p.speed * dt, 2 * M_PI);
        double amp = 512 * p.speed * p.speed;  // 2 g at full speed: the mass's force grows with speed^2
        x = amp * cos(p.phase);
        y = amp * sin(p.phase);
    }
    p.last = cycle;
    int16_t v[3] = {clamp13(x), clamp13(y), clamp13(z)};
    for (int a = 0; a < 3; a++) {
        p.regs[REG_DATAX0 + 2 * a] = (uint8_t)v[a];
        p.regs[REG_DATAX0 + 2 * a + 1] = (uint8_t)((uint16_t)v[a] >> 8);
    }
}

static double odr_hz(void) { return 3200.0 / (1 << (15 - (p.regs[REG_BW_RATE] & 15))); }

static avr_cycle_count_t on_odr(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)param;
    if (!(p.regs[REG_POWER_CTL] & 0x08)) return 0;  // standby: conversions stop
    convert(when);
    return when + (avr_cycle_count_t)lrint(F_CPU / odr_hz());
    (void)avr;
}

static void write_reg(uint8_t a, uint8_t v) {
    if (a == REG_DEVID || (a >= REG_DATAX0 && a < REG_DATAX0 + 6) || a >= 0x3A || a < 0x1D) return;  // read-only
    int was_measuring = p.regs[REG_POWER_CTL] & 0x08;
    p.regs[a] = v;
    if (a == REG_POWER_CTL && (v & 0x08) && !was_measuring) {
        p.last = p.avr->cycle;
        avr_cycle_timer_register(p.avr, (avr_cycle_count_t)lrint(F_CPU / odr_hz()), on_odr, NULL);
    }
}

static avr_cycle_count_t byte_done(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)when, (void)param;
    p.received = p.answer;
    avr->data[SPSR_] |= 0x80;  // SPIF
    return 0;
}

static uint8_t spdr_read(avr_t *avr, avr_io_addr_t addr, void *param) {
    (void)addr, (void)param;
    avr->data[SPSR_] &= (uint8_t)~0x80;
    return p.received;
}

// A byte from the master: work out the part's answer to it, shifted in when the byte ends.
static void spdr_write(avr_t *avr, avr_io_addr_t addr, uint8_t b, void *param) {
    (void)addr, (void)param;
    avr->data[SPDR_] = b;
    if ((avr->data[SPCR_] & 0x50) != 0x50) return;  // SPE and MSTR: only a master shifts by itself
    avr->data[SPSR_] &= (uint8_t)~0x80;
    uint8_t out = 0;
    if (p.selected && p.mode != ACCEL_NONE) {
        int ok = in_mode3();
        uint8_t in = ok ? b : (uint8_t)(b >> 1);
        if (p.count == 0) {
            p.addr = in & 0x3F;
            p.read = in >> 7;
            p.multi = (in >> 6) & 1;
        } else {
            uint8_t a = (uint8_t)(p.addr + (p.multi ? p.count - 1 : 0)) & 0x3F;
            if (p.read) out = p.regs[a];
            else if (p.count == 1 || p.multi) write_reg(a, in);
        }
        if (!ok) out = (uint8_t)(out >> 1 | 0x80);
        if (F_CPU / divider() > 5e6) out = 0xFF;
    }
    if (p.selected && p.count < 16) {
        p.mosi[p.count] = b;
        p.miso[p.count] = out;
    }
    if (p.selected) p.count++;
    p.answer = out;
    avr_cycle_timer_register(p.avr, 8 * divider(), byte_done, NULL);
}

static void on_cs(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq, (void)param;
    if (!value && !p.selected) {
        p.selected = 1;
        p.count = 0;
        p.start = p.avr->cycle;
    } else if (value && p.selected) {
        p.selected = 0;
        int n = p.count < 16 ? p.count : 16;
        record_spi(p.start, p.mosi, p.miso, n);
    }
}

int adxl345_attach(avr_t *avr, int mode) {
    memset(&p, 0, sizeof p);
    p.avr = avr;
    p.mode = mode;
    p.selected = 0;
    p.regs[REG_DEVID] = 0xE5;
    p.regs[REG_BW_RATE] = 0x0A;  // the reset values: 100 Hz, standby
    avr_irq_t *cs = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), 0);
    if (!cs) return -1;
    avr_irq_register_notify(cs, on_cs, NULL);
    int io = AVR_DATA_TO_IO(SPDR_);
    avr->io[io].w.c = spdr_write;
    avr->io[io].w.param = NULL;
    avr->io[io].r.c = spdr_read;
    avr->io[io].r.param = NULL;
    return 0;
}
