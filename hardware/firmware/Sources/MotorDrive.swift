// Motor PWM on TIM1 at 20 kHz (inaudible): CH1 on PA8 drives the MOSFET gate, or an H-bridge's IN1;
// CH2N on PB14 drives the H-bridge's IN2 for reverse (braking, and the LRA's negative half-waves).
// SPDX-License-Identifier: Apache-2.0

#if canImport(BoardCore)
import BoardCore
#endif

enum MotorDrive {
    static let pwmHz: UInt32 = 20_000
    /// Timer counts per PWM period (TIM1 runs at the APB2 timer clock).
    static let top: UInt32 = Board.timerHz / pwmHz

    static func start() {
        RCC.enable(RCC.ahb1enr, 1 << 0 | 1 << 1)  // GPIOA, GPIOB
        RCC.enable(RCC.apb2enr, 1 << 0)            // TIM1
        TIM1Regs.cr1.store(0)
        TIM1Regs.psc.store(0)
        TIM1Regs.arr.store(top - 1)
        TIM1Regs.ccr1.store(0)
        TIM1Regs.ccr2.store(0)
        // PWM mode 1 with preload on CH1 and CH2: a new duty starts with the next PWM period, never mid-pulse.
        TIM1Regs.ccmr1.store(0b110 << 4 | 1 << 3 | 0b110 << 12 | 1 << 11)
        // CH1 output on; CH2 only through its N pin (alone, CH2N is not inverted and has no dead time).
        TIM1Regs.ccer.store(Board.hBridge ? (1 << 0 | 1 << 6) : 1 << 0)
        TIM1Regs.bdtr.store(1 << 15)       // MOE: main output enable (advanced timers need it)
        TIM1Regs.egr.store(1)              // load PSC/ARR/CCR now
        TIM1Regs.cr1.store(1 << 7 | 1 << 0)  // ARPE, counter on
        GPIO.a.alternate(pin: 8, af: 1)
        if Board.hBridge { GPIO.b.alternate(pin: 14, af: 1) } else { GPIO.b.outputLow(pin: 14) }
    }

    /// Drive level -32767...32767 to the two compare registers.
    static func set(_ level: Int16) {
        let magnitude = UInt32(level.magnitude)
        let compare = (magnitude * top + 16383) / 32767
        if level >= 0 || !Board.hBridge {
            TIM1Regs.ccr2.store(0)
            TIM1Regs.ccr1.store(level >= 0 ? compare : 0)
        } else {
            TIM1Regs.ccr1.store(0)
            TIM1Regs.ccr2.store(compare)
        }
    }

    /// Both outputs low at once, whatever state the timer is in (fault handler, failsafe).
    static func off() {
        TIM1Regs.ccr1.store(0)
        TIM1Regs.ccr2.store(0)
    }
}

/// BoardCore's view of the motor: levels are applied when the core hands them over (it does so at
/// their tick, since the firmware runs with no output lead).
struct FirmwarePort: MotorPort {
    /// The accelerometer on SPI1 (Adxl345.swift), looked for once, when the port is made at boot. QEMU's
    /// netduinoplus2 has nothing on SPI1: DEVID reads 0 there, and capability bit 4 stays clear.
    var accel: Adxl345<Spi1Bus>
    let hasAccel: Bool

    init() {
        var a = Adxl345(bus: Spi1Bus())
        hasAccel = a.start(pclk2Hz: Board.pclk2Hz)
        accel = a
    }

    var sensor: SensorDescription? { hasAccel ? Adxl345<Spi1Bus>.description : nil }
    mutating func readSensor(at tick: UInt64) -> SensorSample { accel.read() }

    mutating func schedule(level: Int16, at tick: UInt64) { MotorDrive.set(level) }
    mutating func off(at tick: UInt64) { MotorDrive.off() }
}
