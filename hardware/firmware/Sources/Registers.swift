// STM32F4 peripheral registers the firmware touches, by address (RM0368/RM0383 for the F401/F411,
// RM0090 for QEMU's F405), with volatile access.
// SPDX-License-Identifier: Apache-2.0

import _Volatile

/// One 32-bit memory-mapped register.
struct Reg {
    let address: UInt

    @inline(__always) func load() -> UInt32 { VolatileMappedRegister<UInt32>(unsafeBitPattern: address).load() }
    @inline(__always) func store(_ v: UInt32) { VolatileMappedRegister<UInt32>(unsafeBitPattern: address).store(v) }
    @inline(__always) func set(_ bits: UInt32) { store(load() | bits) }
    @inline(__always) func clear(_ bits: UInt32) { store(load() & ~bits) }
    /// Replaces `width` bits at `shift` with `value`.
    @inline(__always) func field(_ shift: UInt32, _ width: UInt32, _ value: UInt32) {
        let mask: UInt32 = ((1 << width) - 1) << shift
        store((load() & ~mask) | ((value << shift) & mask))
    }
}

// Instructions Swift has no spelling for (Startup/startup.c).
@_silgen_name("mb_irq_disable") func irqDisable()
@_silgen_name("mb_irq_enable") func irqEnable()
@_silgen_name("mb_wfi") func wfi()
@_silgen_name("mb_dsb") func dsb()

enum RCC {
    static let base: UInt = 0x4002_3800
    static let cr = Reg(address: base + 0x00)
    static let pllcfgr = Reg(address: base + 0x04)
    static let cfgr = Reg(address: base + 0x08)
    static let cir = Reg(address: base + 0x0C)
    static let ahb2rstr = Reg(address: base + 0x14)
    static let apb1rstr = Reg(address: base + 0x20)
    static let apb2rstr = Reg(address: base + 0x24)
    static let ahb1enr = Reg(address: base + 0x30)
    static let ahb2enr = Reg(address: base + 0x34)
    static let apb1enr = Reg(address: base + 0x40)
    static let apb2enr = Reg(address: base + 0x44)
    static let csr = Reg(address: base + 0x74)

    static let crHSION: UInt32 = 1 << 0
    static let crHSIRDY: UInt32 = 1 << 1
    static let crHSEON: UInt32 = 1 << 16
    static let crHSERDY: UInt32 = 1 << 17
    static let crHSEBYP: UInt32 = 1 << 18
    static let crPLLON: UInt32 = 1 << 24
    static let crPLLRDY: UInt32 = 1 << 25

    /// Turns on peripheral clocks, then reads the enable register back and waits for the write to
    /// complete (DSB) before the caller touches the peripheral: ES0182/ES0287 "Delay after an RCC
    /// peripheral clock enabling" (the first access can otherwise reach a still unclocked peripheral).
    static func enable(_ register: Reg, _ bits: UInt32) {
        register.set(bits)
        _ = register.load()
        dsb()
    }
}

/// The power controller: voltage scaling (PWR_CR VOS, bits 15:14).
enum PWRRegs {
    static let cr = Reg(address: 0x4000_7000)
}

enum Flash {
    static let base: UInt = 0x4002_3C00
    static let acr = Reg(address: base + 0x00)
    static let optkeyr = Reg(address: base + 0x08)
    static let sr = Reg(address: base + 0x0C)
    static let optcr = Reg(address: base + 0x14)
}

/// A GPIO port's registers.
struct GPIO {
    let base: UInt
    var moder: Reg { Reg(address: base + 0x00) }
    var ospeedr: Reg { Reg(address: base + 0x08) }
    var pupdr: Reg { Reg(address: base + 0x0C) }
    var odr: Reg { Reg(address: base + 0x14) }
    var afrl: Reg { Reg(address: base + 0x20) }
    var afrh: Reg { Reg(address: base + 0x24) }

    static let a = GPIO(base: 0x4002_0000)
    static let b = GPIO(base: 0x4002_0400)

    /// Puts `pin` in alternate function `af`. The function is selected before the mode switches, so
    /// the pin never passes through AF0 (on PA8 that is MCO1, the 16 MHz clock, onto the MOSFET gate).
    /// Speed is "low" (OSPEEDR 0b00, the slowest edges; the datasheets rate it for a few MHz into
    /// 50 pF): 20 kHz PWM and 115200 baud need no more, and slower edges ring and radiate less on the
    /// motor and adapter wires.
    func alternate(pin: UInt32, af: UInt32, pullUp: Bool = false) {
        if pin < 8 { afrl.field(pin * 4, 4, af) } else { afrh.field((pin - 8) * 4, 4, af) }
        ospeedr.field(pin * 2, 2, 0b00)
        pupdr.field(pin * 2, 2, pullUp ? 0b01 : 0b00)
        moder.field(pin * 2, 2, 0b10)
    }

    /// Makes `pin` a push-pull output driven low.
    func outputLow(pin: UInt32) {
        odr.clear(1 << pin)
        moder.field(pin * 2, 2, 0b01)
    }
}

enum USART1Regs {
    static let base: UInt = 0x4001_1000
    static let sr = Reg(address: base + 0x00)
    static let dr = Reg(address: base + 0x04)
    static let brr = Reg(address: base + 0x08)
    static let cr1 = Reg(address: base + 0x0C)
    static let cr2 = Reg(address: base + 0x10)
    static let cr3 = Reg(address: base + 0x14)

    static let srORE: UInt32 = 1 << 3
    static let srRXNE: UInt32 = 1 << 5
    static let srTXE: UInt32 = 1 << 7
    static let cr1RE: UInt32 = 1 << 2
    static let cr1TE: UInt32 = 1 << 3
    static let cr1RXNEIE: UInt32 = 1 << 5
    static let cr1TXEIE: UInt32 = 1 << 7
    static let cr1UE: UInt32 = 1 << 13
}

/// TIM5, a 32-bit general-purpose timer: the board clock, free-running (no interrupt).
enum TIM5Regs {
    static let base: UInt = 0x4000_0C00
    static let cr1 = Reg(address: base + 0x00)
    static let egr = Reg(address: base + 0x14)
    static let cnt = Reg(address: base + 0x24)
    static let psc = Reg(address: base + 0x28)
    static let arr = Reg(address: base + 0x2C)
}

/// The independent watchdog (clocked by the LSI RC oscillator, ~32 kHz).
enum IWDGRegs {
    static let base: UInt = 0x4000_3000
    static let kr = Reg(address: base + 0x00)
    static let pr = Reg(address: base + 0x04)
    static let rlr = Reg(address: base + 0x08)
    static let sr = Reg(address: base + 0x0C)
}

/// Debug support: DBGMCU_APB1_FZ freezes the watchdog while a debugger halts the core.
enum DBGMCURegs {
    static let apb1fz = Reg(address: 0xE004_2008)
}

/// TIM1, the advanced timer: PWM on CH1 (PA8) and CH2N (PB14).
enum TIM1Regs {
    static let base: UInt = 0x4001_0000
    static let cr1 = Reg(address: base + 0x00)
    static let egr = Reg(address: base + 0x14)
    static let ccmr1 = Reg(address: base + 0x18)
    static let ccer = Reg(address: base + 0x20)
    static let psc = Reg(address: base + 0x28)
    static let arr = Reg(address: base + 0x2C)
    static let ccr1 = Reg(address: base + 0x34)
    static let ccr2 = Reg(address: base + 0x38)
    static let bdtr = Reg(address: base + 0x44)
}

enum SysTickRegs {
    static let ctrl = Reg(address: 0xE000_E010)
    static let load = Reg(address: 0xE000_E014)
    static let val = Reg(address: 0xE000_E018)
    static let ctrlCOUNTFLAG: UInt32 = 1 << 16
}

enum SCBRegs {
    static let icsr = Reg(address: 0xE000_ED04)
    static let icsrPENDSTCLR: UInt32 = 1 << 25
}

enum NVIC {
    /// Enables interrupt `irq` (ISER).
    static func enable(irq: UInt32) {
        Reg(address: 0xE000_E100 + UInt(irq / 32) * 4).store(1 << (irq % 32))
    }
}
