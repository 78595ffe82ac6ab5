// The ADXL345 accelerometer on SPI1 (PA4 CS, PA5 SCK, PA6 MISO, PA7 MOSI), as a sequence of register
// writes and SPI transfers through an injectable bus: the firmware's bus touches the STM32's registers
// (Spi1.swift), a host check records the sequence (hardware/firmware/test/adxl345-sequence.sh).
// References: RM0383 (STM32F411) sections 6 (RCC), 8 (GPIO), 20 (SPI: CR1's CPHA, CPOL, MSTR, BR, SPE,
// SSI, SSM); the ADXL345 data sheet Rev. E (mode 3, at most 5 MHz, DEVID 0xE5, the register map).
// SPDX-License-Identifier: Apache-2.0

/// What the driver needs from the hardware: peripheral register writes and SPI byte transfers.
protocol AccelBus {
    /// Read-modify-write of a 32-bit peripheral register: the bits in `mask` become those of `value`.
    mutating func modify(_ address: UInt32, mask: UInt32, value: UInt32)
    /// A plain write (set/reset registers such as GPIO BSRR).
    mutating func store(_ address: UInt32, _ value: UInt32)
    /// One byte each way on SPI1 (waits for it).
    mutating func transfer(_ byte: UInt8) -> UInt8
}

/// Register addresses and bits (RM0383).
enum AccelRegs {
    static let rccAHB1ENR: UInt32 = 0x4002_3830
    static let rccAPB2ENR: UInt32 = 0x4002_3844
    static let gpioaMODER: UInt32 = 0x4002_0000
    static let gpioaOSPEEDR: UInt32 = 0x4002_0008
    static let gpioaBSRR: UInt32 = 0x4002_0018
    static let gpioaAFRL: UInt32 = 0x4002_0020
    static let spi1CR1: UInt32 = 0x4001_3000
    static let spi1SR: UInt32 = 0x4001_3008
    static let spi1DR: UInt32 = 0x4001_300C

    static let gpioaEN: UInt32 = 1 << 0   // RCC_AHB1ENR
    static let spi1EN: UInt32 = 1 << 12   // RCC_APB2ENR
    static let cs: UInt32 = 4             // PA4, a plain output (software chip select)
    static let sck: UInt32 = 5, miso: UInt32 = 6, mosi: UInt32 = 7  // AF5: SPI1

    static let cpha: UInt32 = 1 << 0, cpol: UInt32 = 1 << 1, mstr: UInt32 = 1 << 2
    static let brShift: UInt32 = 3, spe: UInt32 = 1 << 6, ssi: UInt32 = 1 << 8, ssm: UInt32 = 1 << 9
    static let srRXNE: UInt32 = 1 << 0, srTXE: UInt32 = 1 << 1
}

/// The ADXL345 driver over `Bus`.
struct Adxl345<Bus: AccelBus> {
    var bus: Bus

    static var devid: UInt8 { 0xE5 }
    /// SENSOR's fixed fields for this part as the driver sets it up.
    static var description: SensorDescription {
        SensorDescription(maxRateHz: 3200, scaleMicroG: 3906, rangeG: 16, part: 1, sensorODRHz: 3200)
    }

    /// SPI1's baud-rate divider (CR1 BR, f_PCLK2 / 2^(BR+1)) for at most 5 MHz: BR 4 (2.6 MHz) at 84 MHz.
    static func baudDivider(pclk2Hz: UInt32) -> UInt32 {
        var br: UInt32 = 0
        while br < 7 && pclk2Hz >> (br + 1) > 5_000_000 { br += 1 }
        return br
    }

    /// Clocks, pins and SPI1 in mode 3 (CPOL = 1, CPHA = 1), master, software chip select (SSM = 1 with
    /// SSI = 1, so the unit stays master), MSB first, 8 bits; the chip select high before anything else.
    mutating func setUp(pclk2Hz: UInt32) {
        typealias R = AccelRegs
        bus.modify(R.rccAHB1ENR, mask: R.gpioaEN, value: R.gpioaEN)
        bus.modify(R.rccAPB2ENR, mask: R.spi1EN, value: R.spi1EN)
        bus.store(R.gpioaBSRR, 1 << R.cs)  // CS high (set) before its pin becomes an output
        bus.modify(R.gpioaMODER, mask: 0b11 << (2 * R.cs), value: 0b01 << (2 * R.cs))
        var afMask: UInt32 = 0, af: UInt32 = 0, modeMask: UInt32 = 0, mode: UInt32 = 0, speed: UInt32 = 0
        for pin in R.sck...R.mosi {  // PA5, PA6, PA7 (a range: no array, no heap)
            afMask |= 0xF << (4 * pin); af |= 5 << (4 * pin)
            modeMask |= 0b11 << (2 * pin); mode |= 0b10 << (2 * pin); speed |= 0b01 << (2 * pin)
        }
        bus.modify(R.gpioaAFRL, mask: afMask, value: af)       // the function before the mode (no AF0 glitch)
        bus.modify(R.gpioaOSPEEDR, mask: modeMask, value: speed)  // medium speed: enough for 2.6 MHz
        bus.modify(R.gpioaMODER, mask: modeMask, value: mode)
        let cr1 = R.cpha | R.cpol | R.mstr | Self.baudDivider(pclk2Hz: pclk2Hz) << R.brShift | R.ssm | R.ssi
        bus.store(R.spi1CR1, cr1)
        bus.store(R.spi1CR1, cr1 | R.spe)  // enabled once configured (RM0383: "SPI configuration")
    }

    private mutating func select(_ low: Bool) {
        bus.store(AccelRegs.gpioaBSRR, 1 << (AccelRegs.cs + (low ? 16 : 0)))
    }

    mutating func writeRegister(_ reg: UInt8, _ value: UInt8) {
        select(true)
        _ = bus.transfer(reg)
        _ = bus.transfer(value)
        select(false)
    }

    mutating func readRegister(_ reg: UInt8) -> UInt8 {
        select(true)
        _ = bus.transfer(0x80 | reg)  // bit 7: read
        let v = bus.transfer(0)
        select(false)
        return v
    }

    /// Set-up, DEVID, and if it is an ADXL345: standby, DATA_FORMAT 0x0B (4-wire, full resolution, ±16 g),
    /// BW_RATE 0x0F (3200 Hz), FIFO_CTL 0 (bypass), POWER_CTL 0x08 (measure). False: no part answered.
    mutating func start(pclk2Hz: UInt32) -> Bool {
        setUp(pclk2Hz: pclk2Hz)
        guard readRegister(0x00) == Self.devid else { return false }
        writeRegister(0x2D, 0x00)
        writeRegister(0x31, 0x0B)
        writeRegister(0x2C, 0x0F)
        writeRegister(0x38, 0x00)
        writeRegister(0x2D, 0x08)
        return true
    }

    /// DATAX0 ... DATAZ1 in one transfer (bit 7 read, bit 6 multi-byte): one coherent sample.
    mutating func read() -> SensorSample {
        select(true)
        _ = bus.transfer(0x80 | 0x40 | 0x32)
        var v: (UInt16, UInt16, UInt16) = (0, 0, 0)
        v.0 = UInt16(bus.transfer(0)) | UInt16(bus.transfer(0)) << 8
        v.1 = UInt16(bus.transfer(0)) | UInt16(bus.transfer(0)) << 8
        v.2 = UInt16(bus.transfer(0)) | UInt16(bus.transfer(0)) << 8
        select(false)
        return SensorSample(x: Int16(bitPattern: v.0), y: Int16(bitPattern: v.1), z: Int16(bitPattern: v.2))
    }
}
