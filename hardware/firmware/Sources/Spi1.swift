// The ADXL345 driver's bus on the chip: SPI1 and GPIOA through their registers (Adxl345.swift).
// SPDX-License-Identifier: Apache-2.0

/// Peripheral register access for `Adxl345`. Transfers wait a bounded time (a byte takes 3 µs at
/// 2.6 MHz; the bound is far above): an emulator without the SPI unit's flags cannot hang the boot.
struct Spi1Bus: AccelBus {
    mutating func modify(_ address: UInt32, mask: UInt32, value: UInt32) {
        let r = Reg(address: UInt(address))
        r.store((r.load() & ~mask) | (value & mask))
    }

    mutating func store(_ address: UInt32, _ value: UInt32) { Reg(address: UInt(address)).store(value) }

    mutating func transfer(_ byte: UInt8) -> UInt8 {
        let sr = Reg(address: UInt(AccelRegs.spi1SR)), dr = Reg(address: UInt(AccelRegs.spi1DR))
        var n = 0
        while sr.load() & AccelRegs.srTXE == 0 && n < 10_000 { n += 1 }
        dr.store(UInt32(byte))
        n = 0
        while sr.load() & AccelRegs.srRXNE == 0 && n < 10_000 { n += 1 }
        return UInt8(truncatingIfNeeded: dr.load())
    }
}
