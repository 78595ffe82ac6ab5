// The firmware's main loop: bytes from the UART into BoardCore, BoardCore's messages out, the motor
// driven on the board clock, and WFI whenever there is nothing to do.

import Synchronization

#if canImport(MotorWire)
import MotorWire
#endif
#if canImport(BoardCore)
import BoardCore
#endif

// Three instructions Swift has no spelling for (Startup/startup.c).
@_silgen_name("mb_irq_disable") func irqDisable()
@_silgen_name("mb_irq_enable") func irqEnable()
@_silgen_name("mb_wfi") func wfi()

/// The board's whole state, in static RAM (so the link map and `size` show it), set up in main.
nonisolated(unsafe) var core: BoardCore<FirmwarePort>? = nil

@_cdecl("motorbreath_main")
func motorbreathMain() {
    Board.setupClocks()
    MotorDrive.start()
    // Globals with initial values are set up on first use: do that here, before the interrupts that
    // also use them are enabled, so an interrupt never runs an initialiser halfway through main's.
    _ = sysTickPeriods.load(ordering: .relaxed)
    _ = rxRing.isEmpty
    _ = txRing.isEmpty
    BoardClock.start()
    Usart1.start(baud: Board.baud)
    core = BoardCore(port: FirmwarePort(), info: Board.info(), outputLeadTicks: 0)
    core!.boot(now: BoardClock.now())
    var wire = FixedBytes()
    var pendingOut = false
    while true {
        while let byte = rxRing.pop() { core!.receive(byte, now: BoardClock.now()) }
        Usart1.pump()
        core!.service(now: BoardClock.now())
        // A message goes out whole or waits: a ring never holds half a frame.
        while true {
            if !pendingOut {
                guard core!.nextOutgoing(into: &wire) else { break }
                pendingOut = true
            }
            guard txRing.space >= UInt32(wire.count) else { break }
            for i in 0..<wire.count { Usart1.send(wire[i]) }
            Usart1.kick()
            pendingOut = false
        }
        // Sleep until the next interrupt (SysTick every 100 µs, or a received byte), unless a byte
        // slipped in since the loop looked: the check and WFI run with interrupts masked.
        // (WFI wakes on a pending interrupt even while they are masked; it is taken once unmasked.)
        irqDisable()
        if rxRing.isEmpty { wfi() }
        irqEnable()
    }
}
