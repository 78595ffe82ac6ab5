// The board clock and the wake-up timer. The clock is TIM5, a free-running 32-bit counter read on
// demand and extended to 64 bits in software (BoardCore's CounterExtension): no interrupt counts time,
// so a late or lost interrupt cannot cost the clock anything. SysTick only wakes the main loop at the
// next moment BoardCore has work; a late wake delays that work, never the clock.
// SPDX-License-Identifier: Apache-2.0

#if canImport(BoardCore)
import BoardCore
#endif

enum BoardClock {
    static let hz: UInt32 = Board.counterHz

    nonisolated(unsafe) static var counter = CounterExtension(raw: 0)

    static func start() {
        RCC.enable(RCC.apb1enr, 1 << 3)  // TIM5
        TIM5Regs.cr1.store(0)
        TIM5Regs.psc.store(Board.counterPrescaler)
        TIM5Regs.arr.store(0xFFFF_FFFF)  // count through all 32 bits
        TIM5Regs.egr.store(1)            // UG: load the prescaler now (it is buffered), counter to 0
        TIM5Regs.cnt.store(Board.counterStart)
        TIM5Regs.cr1.store(1)            // counter on; no interrupt
        counter = CounterExtension(raw: TIM5Regs.cnt.load())
    }

    /// Board ticks since boot (plus `Board.counterStart`). Main loop only: call it at least once per
    /// 2^32 counts (51 s at 84 MHz); the loop does so at least every `WakeTimer.longestSleep`.
    static func now() -> UInt64 {
        counter.extend(TIM5Regs.cnt.load())
    }
}

/// SysTick as a one-shot alarm for WFI: counts CPU cycles down to the next wake and raises its
/// interrupt, whose handler does nothing but end the WFI.
enum WakeTimer {
    /// The longest sleep: 50 ms (the loop also refreshes the watchdog), within SysTick's 24 bits.
    static let longestSleep: UInt32 = min(Board.cpuHz / 20, 0xFF_FFFF)

    static func start() {
        SysTickRegs.load.store(longestSleep - 1)
        SysTickRegs.val.store(0)
        SysTickRegs.ctrl.store(0b111)  // processor clock, interrupt, enable
    }

    /// Sets the alarm for board tick `wake` (now is `now`). Call with interrupts masked, right before WFI.
    static func arm(wake: UInt64, now: UInt64) {
        let cycles = WakeDelay.cycles(from: now, to: wake, clockHz: BoardClock.hz, cpuHz: Board.cpuHz,
                                      maxCycles: longestSleep)
        SysTickRegs.load.store(cycles - 1)
        SCBRegs.icsr.store(SCBRegs.icsrPENDSTCLR)  // forget an alarm that fired while the loop was busy
        SysTickRegs.val.store(0)                   // count down from the new reload value now (clears COUNTFLAG)
    }

    /// The alarm went off since it was last armed (SysTick's COUNTFLAG, which reading CTRL clears; only
    /// the sleep check reads it). The alarm may fire between `arm` and the masked check: its interrupt
    /// is then taken and gone, and this flag is what says so.
    @inline(__always) static func fired() -> Bool {
        SysTickRegs.ctrl.load() & SysTickRegs.ctrlCOUNTFLAG != 0
    }
}

@_cdecl("SysTick_Handler")
func sysTickHandler() {}
