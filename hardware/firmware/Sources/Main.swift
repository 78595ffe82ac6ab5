// The firmware's main loop: bytes from the UART into BoardCore, BoardCore's messages out, the motor
// driven on the board clock, and WFI whenever there is nothing to do.
// SPDX-License-Identifier: Apache-2.0

import Synchronization

#if canImport(MotorWire)
import MotorWire
#endif
#if canImport(BoardCore)
import BoardCore
#endif

/// The board's whole state, in static RAM (so the link map and `size` show it), set up in main.
nonisolated(unsafe) var core: BoardCore<FirmwarePort>? = nil

/// The last reset was the watchdog's (kept for a debugger; the protocol has no field for it).
nonisolated(unsafe) var resetByWatchdog = false
/// What the brown-out level write did at this boot (kept for a debugger, like `resetByWatchdog`).
nonisolated(unsafe) var brownOutResult = BrownOut.Result.unchanged

@_cdecl("motorbreath_main")
func motorbreathMain() {
    Board.setupClocks()
    MotorDrive.start()
    #if FAULT_AT_BOOT
    // Test build: a fault with TIM1 driving the motor pins, before the watchdog runs (a volatile read,
    // so the compiler keeps the code after it).
    if USART1Regs.brr.load() != 0xFFFF_FFFF { fatalError() }
    #endif
    resetByWatchdog = Watchdog.causedLastReset()
    brownOutResult = BrownOut.ensureLevel3()
    Watchdog.start()
    // Globals with initial values are set up on first use: do that here, before the interrupts that
    // also use them are enabled, so an interrupt never runs an initialiser halfway through main's.
    _ = rxRing.isEmpty
    _ = txRing.isEmpty
    BoardClock.start()
    WakeTimer.start()
    Usart1.start(baud: Board.baud)
    core = BoardCore(port: FirmwarePort(), info: Board.info(), outputLeadTicks: 0, limits: Board.limits)
    mainLoop(&core!)
}

/// The loop, on the core by reference. Reached through the optional global instead (`core!.receive`),
/// every call copied the whole 5 KB core in and out: about 7,000 instructions per received byte,
/// measured with the cycle bench (Bench/CycleBench.swift), more than a 16 MHz part has per byte at
/// 115200 baud.
func mainLoop(_ core: inout BoardCore<FirmwarePort>) -> Never {
    core.boot(now: BoardClock.now())
    var outgoing = Outgoing()
    while true {
        Watchdog.refresh()
        let delimitersSeen = rxDelimiters.load(ordering: .acquiring)
        loopPass(&core, &outgoing) { BoardClock.now() }
        // Sleep until BoardCore's next work (a frame's tick, a carrier edge, the failsafe deadline) or
        // a whole frame in the receive ring. The bytes of a frame arrive one by one and each wakes the
        // CPU, but costs only the check below, not a loop pass (about 1,100 instructions a pass, the
        // cycle bench measured). The next wake and the alarm are computed with interrupts enabled
        // (about 800 instructions: masked, they were as long as a character at 115200 baud, and the
        // UART could overrun); only the last check and WFI run masked (`sleepUnlessPending`). The alarm
        // is set again after each wake: it never fires early, but a wake for a byte must not leave it
        // to its next period.
        var now = BoardClock.now()
        let wake = loopWake(&core, now: now)
        while wake > now && !receivedFrame(since: delimitersSeen) {
            WakeTimer.arm(wake: wake, now: now)
            sleepUnlessPending(since: delimitersSeen)
            Watchdog.refresh()
            now = BoardClock.now()
        }
    }
}
