// The board clock: SysTick interrupts every 100 µs, plus SysTick's down-counter for the time between
// them, as one 64-bit microsecond count that never wraps. TIM2-5 are broken in QEMU 7.2; SysTick works
// there and on silicon alike.

import Synchronization

/// SysTick periods since boot (the interrupt counts them).
let sysTickPeriods = Atomic<UInt32>(0)

@_cdecl("SysTick_Handler")
func sysTickHandler() {
    sysTickPeriods.add(1, ordering: .releasing)
}

enum BoardClock {
    static let hz: UInt32 = 1_000_000
    static let periodUs: UInt32 = 100
    /// SysTick counts CPU cycles: reload for one period.
    static let reload: UInt32 = Board.cpuHz / (hz / periodUs) - 1

    nonisolated(unsafe) static var high: UInt64 = 0
    nonisolated(unsafe) static var lastPeriods: UInt32 = 0

    static func start() {
        SysTickRegs.load.store(reload)
        SysTickRegs.val.store(0)
        SysTickRegs.ctrl.store(0b111)  // processor clock, interrupt, enable
    }

    /// Microseconds since boot. Main loop only (it extends the 32-bit period count to 64 bits).
    static func now() -> UInt64 {
        var periods: UInt32
        var remaining: UInt32
        var pending: Bool
        repeat {
            periods = sysTickPeriods.load(ordering: .acquiring)
            remaining = SysTickRegs.val.load()
            pending = SCBRegs.icsr.load() & SCBRegs.icsrPENDSTSET != 0
        } while periods != sysTickPeriods.load(ordering: .acquiring)  // the interrupt ran in between: again
        // The counter wrapped but its interrupt has not run yet: the reloaded count belongs to the next period.
        if pending && remaining > reload / 2 { periods &+= 1 }
        // The count only moves forward: a step back of more than half its range is the 32-bit count
        // wrapping (every 5 days); a small one undoes the pending-interrupt correction of an earlier call.
        let back = lastPeriods &- periods
        if periods < lastPeriods && back > 1 << 31 {
            high &+= 1 << 32
        } else if periods < lastPeriods {
            periods = lastPeriods
        }
        lastPeriods = periods
        let within = UInt64(reload - min(remaining, reload)) * UInt64(periodUs) / UInt64(reload + 1)
        return (high | UInt64(periods)) * UInt64(periodUs) + within
    }
}
