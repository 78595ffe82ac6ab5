// What this build of the firmware is: the board (QEMU's netduinoplus2 or a Black Pill) and the motor
// driver (ERM on a MOSFET, ERM on an H-bridge, LRA on an H-bridge), chosen by build.sh with -D flags.
// SPDX-License-Identifier: Apache-2.0

#if canImport(MotorWire)
import MotorWire
#endif

enum Board {
    #if QEMU
    /// QEMU's netduinoplus2 clocks SysTick from a 168 MHz system clock and ignores RCC and the baud rate.
    static let cpuHz: UInt32 = 168_000_000
    #else
    /// The PLL at 84 MHz (Clocks.swift), from the Black Pill's 25 MHz crystal, or from the HSI when the
    /// crystal does not start (the same 84 MHz, with the RC oscillator's ±1 % at 25 °C, about ±4 % over
    /// -10...85 °C). 84 MHz is the F401's maximum; the F411 (100 MHz) runs the same build.
    static let cpuHz: UInt32 = 84_000_000
    #endif
    /// APB2 (USART1, TIM1) runs undivided; APB1 at half (TIM5's timer clock is twice that: cpuHz again).
    static let pclk2Hz = cpuHz
    #if QEMU
    static let pclk1Hz = cpuHz
    #else
    static let pclk1Hz = cpuHz / 2
    #endif
    static let timerHz = cpuHz
    static let baud: UInt32 = 115_200

    #if QEMU
    /// QEMU 7.2 clocks TIM2-5 at 1 GHz whatever RCC says (measured): /50 gives a 20 MHz board clock.
    static let counterPrescaler: UInt32 = 49
    static let counterHz: UInt32 = 20_000_000
    #else
    /// TIM5 on the 84 MHz APB1 timer clock, undivided: the board clock ticks with the CPU clock (its
    /// 32 bits wrap every 51 s; the loop reads it at least every 50 ms).
    static let counterPrescaler: UInt32 = 0
    static let counterHz: UInt32 = 84_000_000
    #endif
    #if CLOCK_NEAR_WRAP
    /// Test build: the counter starts 15 s before its 32-bit wrap, and the board clock 15 s before 2^32.
    static let counterStart: UInt32 = 0 &- 15 &* counterHz
    #else
    static let counterStart: UInt32 = 0
    #endif

    #if MOTOR_LRA
    static let motor = MotorKind.lra
    static let hBridge = true
    static let lraDeciHz: UInt16 = 1750  // 175 Hz, a common coin LRA; set yours here
    #elseif DRIVER_HBRIDGE
    static let motor = MotorKind.erm
    static let hBridge = true
    static let lraDeciHz: UInt16 = 0
    #else
    static let motor = MotorKind.erm
    static let hBridge = false
    static let lraDeciHz: UInt16 = 0
    #endif

    /// The motor's voltage ceiling, enforced by BoardCore (DriveLimit.swift) and reported in LIMITS:
    /// rated voltage over the 5 V drive supply, with a bounded overdrive for kicks and braking.
    #if MOTOR_LRA
    static let limits = Limits(ratedMillivolts: 2000, supplyMillivolts: 5000, overdriveMs: 20, recoveryMs: 200)  // 2 V rms LRA: 40 %
    #else
    static let limits = Limits(ratedMillivolts: 3000, supplyMillivolts: 5000, overdriveMs: 50, recoveryMs: 500)  // 3 V ERM: 60 %
    #endif

    static func name() -> BoardName {
        #if QEMU
        return motor == .lra ? BoardName("motorbreath-qemu-lra") : hBridge ? BoardName("motorbreath-qemu-erm-hbridge") : BoardName("motorbreath-qemu-erm")
        #else
        // "-hsi": the crystal did not start and the clock runs from the RC oscillator (Clocks.swift).
        if !Clocks.crystal {
            return motor == .lra ? BoardName("motorbreath-f4-lra-hsi") : hBridge ? BoardName("motorbreath-f4-erm-hbridge-hsi") : BoardName("motorbreath-f4-erm-hsi")
        }
        return motor == .lra ? BoardName("motorbreath-f4-lra") : hBridge ? BoardName("motorbreath-f4-erm-hbridge") : BoardName("motorbreath-f4-erm")
        #endif
    }

    /// The chip's 96-bit unique ID folded to 64 bits (QEMU does not model the ID area: a fixed value).
    static func uniqueID() -> UInt64 {
        #if QEMU
        return 0x5145_4D55_4634_3035  // "QEMUF405"
        #else
        let w0 = Reg(address: 0x1FFF_7A10).load(), w1 = Reg(address: 0x1FFF_7A14).load(), w2 = Reg(address: 0x1FFF_7A18).load()
        return UInt64(w0 ^ w2) << 32 | UInt64(w1)
        #endif
    }

    static func info() -> Info {
        let pwmBits = UInt8(32 - (MotorDrive.top - 1).leadingZeroBitCount)
        var caps: UInt8 = Info.capLimits | (hBridge ? Info.capReverse : 0)
        if motor == .lra { caps |= Info.capLRACarrier }
        return Info(firmwareMajor: 0, firmwareMinor: 3, firmwarePatch: 0, motorKind: motor, pwmBits: pwmBits,
                    capabilities: caps, bufferCapacity: 1024, minFrameRateHz: 50, maxFrameRateHz: 1000,
                    clockHz: BoardClock.hz, uniqueID: uniqueID(), lraResonanceDeciHz: lraDeciHz, name: name())
    }

    /// Clock setup from any prior clock state (Clocks.swift).
    static func setupClocks() {
        Clocks.setup()
    }
}
