// What this build of the firmware is: the board (QEMU's netduinoplus2 or a Black Pill) and the motor
// driver (ERM on a MOSFET, ERM on an H-bridge, LRA on an H-bridge), chosen by build.sh with -D flags.

#if canImport(MotorWire)
import MotorWire
#endif

enum Board {
    #if QEMU
    /// QEMU's netduinoplus2 clocks SysTick from a 168 MHz system clock and ignores RCC and the baud rate.
    static let cpuHz: UInt32 = 168_000_000
    #else
    /// The reset clock (HSI, 16 MHz, ±1 %): no PLL, no waiting on RCC flags. The host measures and
    /// corrects the clock's drift, so the RC oscillator's error does not reach the breath.
    static let cpuHz: UInt32 = 16_000_000
    #endif
    static let pclk2Hz = cpuHz
    static let timerHz = cpuHz
    static let baud: UInt32 = 115_200

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

    static func name() -> BoardName {
        #if QEMU
        return motor == .lra ? BoardName("motorbreath-qemu-lra") : hBridge ? BoardName("motorbreath-qemu-erm-hbridge") : BoardName("motorbreath-qemu-erm")
        #else
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
        var caps: UInt8 = hBridge ? Info.capReverse : 0
        if motor == .lra { caps |= Info.capLRACarrier }
        return Info(firmwareMajor: 0, firmwareMinor: 2, firmwarePatch: 0, motorKind: motor, pwmBits: pwmBits,
                    capabilities: caps, bufferCapacity: 1024, minFrameRateHz: 50, maxFrameRateHz: 1000,
                    clockHz: BoardClock.hz, uniqueID: uniqueID(), lraResonanceDeciHz: lraDeciHz, name: name())
    }

    /// Clock setup: the reset clock, zero flash wait states (16 MHz needs none), caches on.
    static func setupClocks() {
        Flash.acr.store(1 << 9 | 1 << 10)  // instruction and data caches, 0 wait states
        RCC.cfgr.store(0)                   // SYSCLK = HSI, AHB/APB prescalers 1
    }
}
