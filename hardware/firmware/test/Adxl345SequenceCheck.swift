// Host check of Sources/Adxl345.swift: the register writes and SPI transfers the driver makes, recorded
// through a fake bus with an ADXL345 behind it, against the sequence RM0383 and the ADXL345 data sheet
// (Rev. E) give, written out here independently. Run by adxl345-sequence.sh.
// SPDX-License-Identifier: Apache-2.0

enum Op: Equatable {
    case modify(UInt32, mask: UInt32, value: UInt32)
    case store(UInt32, UInt32)
    case transfer(out: UInt8, got: UInt8)
}

/// Records every operation; behind it, an ADXL345 that answers only in SPI mode 3 (the CR1 in force) and
/// only while its chip select (PA4, through GPIOA_BSRR) is low.
struct FakeBus: AccelBus {
    var ops: [Op] = []
    var cr1: UInt32 = 0
    var csLow = false
    var count = 0, address: UInt8 = 0, reading = false, multi = false
    var regs = [UInt8](repeating: 0, count: 64)
    var present = true

    init() { regs[0] = 0xE5; regs[0x32] = 0x34; regs[0x33] = 0x12; regs[0x34] = 0xFE; regs[0x35] = 0xFF; regs[0x36] = 0x00; regs[0x37] = 0x01 }

    mutating func modify(_ address: UInt32, mask: UInt32, value: UInt32) { ops.append(.modify(address, mask: mask, value: value)) }

    mutating func store(_ a: UInt32, _ v: UInt32) {
        ops.append(.store(a, v))
        if a == 0x4001_3000 { cr1 = v }
        if a == 0x4002_0018 {
            if v & (1 << 20) != 0 { csLow = true; count = 0 }
            if v & (1 << 4) != 0 { csLow = false }
        }
    }

    mutating func transfer(_ byte: UInt8) -> UInt8 {
        var out: UInt8 = 0
        let mode3 = cr1 & 0b11 == 0b11 && cr1 & (1 << 6) != 0 && cr1 & (1 << 2) != 0
        if csLow && present {
            let b = mode3 ? byte : byte >> 1
            if count == 0 {
                address = b & 0x3F; reading = b & 0x80 != 0; multi = b & 0x40 != 0
            } else {
                let a = Int(address) + (multi ? count - 1 : 0)
                if reading { out = regs[a & 63] } else if count == 1 || multi { regs[a & 63] = b }
            }
            if !mode3 { out = out >> 1 | 0x80 }
            count += 1
        }
        ops.append(.transfer(out: byte, got: out))
        return out
    }
}

func expect(_ ok: Bool, _ what: String) {
    if !ok { fatalError("FAIL: \(what)") }
}

@main struct Check {
    static func main() {
        // RM0383: RCC_AHB1ENR 0x40023830 bit 0 GPIOAEN; RCC_APB2ENR 0x40023844 bit 12 SPI1EN; GPIOA at
        // 0x40020000 (MODER +0, OSPEEDR +8, BSRR +0x18: bit n sets, n + 16 resets; AFRL +0x20); SPI1 at
        // 0x40013000 (CR1 +0: CPHA 0, CPOL 1, MSTR 2, BR 5:3, SPE 6, SSI 8, SSM 9). SPI1 is AF5 on PA5-7.
        let cr1At84: UInt32 = 1 << 0 | 1 << 1 | 1 << 2 | 4 << 3 | 1 << 8 | 1 << 9  // BR 4: 84 MHz / 32
        let csLow = Op.store(0x4002_0018, 1 << 20), csHigh = Op.store(0x4002_0018, 1 << 4)
        func tx(_ o: UInt8, _ g: UInt8 = 0) -> Op { .transfer(out: o, got: g) }
        var expected: [Op] = [
            .modify(0x4002_3830, mask: 1, value: 1),
            .modify(0x4002_3844, mask: 1 << 12, value: 1 << 12),
            csHigh,
            .modify(0x4002_0000, mask: 0b11 << 8, value: 0b01 << 8),
            .modify(0x4002_0020, mask: 0xFFF0_0000, value: 0x5550_0000),
            .modify(0x4002_0008, mask: 0xFC00, value: 0x5400),
            .modify(0x4002_0000, mask: 0xFC00, value: 0xA800),
            .store(0x4001_3000, cr1At84),
            .store(0x4001_3000, cr1At84 | 1 << 6),
            // ADXL345: DEVID (0x00, read bit 7) = 0xE5; then POWER_CTL 0x2D standby, DATA_FORMAT 0x31 = 0x0B
            // (SPI bit 6 clear: 4-wire; FULL_RES bit 3; range 11: ±16 g), BW_RATE 0x2C = 0x0F (3200 Hz),
            // FIFO_CTL 0x38 = 0 (bypass), POWER_CTL 0x2D = 0x08 (Measure).
            csLow, tx(0x80), tx(0x00, 0xE5), csHigh,
        ]
        for (r, v) in [(0x2D, 0x00), (0x31, 0x0B), (0x2C, 0x0F), (0x38, 0x00), (0x2D, 0x08)] as [(UInt8, UInt8)] {
            expected += [csLow, tx(r), tx(v), csHigh]
        }
        var a = Adxl345(bus: FakeBus())
        expect(a.start(pclk2Hz: 84_000_000), "no ADXL345 found on the fake bus")
        for (i, op) in expected.enumerated() {
            expect(i < a.bus.ops.count && a.bus.ops[i] == op, "step \(i): expected \(op), the driver did \(i < a.bus.ops.count ? "\(a.bus.ops[i])" : "nothing")")
        }
        expect(a.bus.ops.count == expected.count, "\(a.bus.ops.count - expected.count) operations more than expected")
        expect(a.bus.regs[0x31] == 0x0B && a.bus.regs[0x2C] == 0x0F && a.bus.regs[0x2D] == 0x08, "the part's registers after start")

        // One sample: DATAX0 0x32 with bits 7 and 6 (0xF2), six bytes, little-endian two's complement.
        a.bus.ops = []
        let s = a.read()
        expect(a.bus.ops == [csLow, tx(0xF2), tx(0, 0x34), tx(0, 0x12), tx(0, 0xFE), tx(0, 0xFF), tx(0, 0x00), tx(0, 0x01), csHigh],
               "the data read: \(a.bus.ops)")
        expect(s == SensorSample(x: 0x1234, y: -2, z: 256), "decoded \(s)")

        // The clock: at most 5 MHz from either board's APB2.
        for (pclk, br) in [(84_000_000, 4), (168_000_000, 5), (16_000_000, 1)] as [(UInt32, UInt32)] {
            let d = Adxl345<FakeBus>.baudDivider(pclk2Hz: pclk)
            expect(d == br && pclk >> (d + 1) <= 5_000_000, "BR at \(pclk) Hz: \(d), expected \(br)")
        }

        // No part (QEMU): DEVID reads 0, nothing is configured, the caller clears capability bit 4.
        var none = FakeBus()
        none.present = false
        var b = Adxl345(bus: none)
        expect(!b.start(pclk2Hz: 84_000_000), "found a part on an empty bus")
        expect(b.bus.ops.count == 13, "configured a missing part: \(b.bus.ops.count) operations")
        print("adxl345 sequence check: \(expected.count) set-up steps, the data read, BR for 16/84/168 MHz, no part: all as RM0383 and the data sheet say")
    }
}
