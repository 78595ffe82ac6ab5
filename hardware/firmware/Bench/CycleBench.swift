// The cycle bench (build.sh --cycle-bench; cycle-bench.sh runs it): the firmware's own code paths, timed
// one call at a time, with the results printed over USART1 as "name count avg max" lines. On silicon
// the DWT cycle counter counts CPU cycles. QEMU models no DWT; there TIM5 at its undivided clock counts
// one per guest instruction when QEMU runs with -icount shift=0 (1 ns of virtual time per instruction),
// so the numbers are instruction counts (cycle-bench.sh turns them into a cycle budget).
// SPDX-License-Identifier: Apache-2.0

#if canImport(MotorWire)
import MotorWire
#endif
#if canImport(BoardCore)
import BoardCore
#endif

/// The counter both measurements read, and its cost (subtracted from every measurement).
enum CycleCounter {
    static let demcr = Reg(address: 0xE000_EDFC)
    static let dwtCtrl = Reg(address: 0xE000_1000)
    static let dwtCyccnt = Reg(address: 0xE000_1004)
    nonisolated(unsafe) static var useDWT = false
    nonisolated(unsafe) static var overhead: UInt32 = 0

    static func start() {
        demcr.set(1 << 24)  // TRCENA: the DWT on
        dwtCyccnt.store(0)
        dwtCtrl.set(1)      // CYCCNTENA
        RCC.enable(RCC.apb1enr, 1 << 3)  // TIM5, undivided
        TIM5Regs.psc.store(0)
        TIM5Regs.arr.store(0xFFFF_FFFF)
        TIM5Regs.egr.store(1)
        TIM5Regs.cr1.store(1)
        let a = dwtCyccnt.load()
        for _ in 0..<10 { dsb() }
        useDWT = dwtCyccnt.load() != a
        let t0 = read()
        overhead = read() &- t0
    }

    @inline(__always) static func read() -> UInt32 { useDWT ? dwtCyccnt.load() : TIM5Regs.cnt.load() }
}

/// Count, total and largest of one kind of measurement.
struct Tally {
    var count: UInt32 = 0
    var total: UInt32 = 0
    var max: UInt32 = 0
    mutating func add(_ v: UInt32) {
        count &+= 1
        total &+= v
        if v > max { max = v }
    }
}

/// Polled output on USART2 (PA2 on an F401/F411; QEMU's second serial port): USART1 carries the
/// firmware's own replies while the bench runs the main loop's code.
enum Out {
    static let sr = Reg(address: 0x4000_4400)
    static let dr = Reg(address: 0x4000_4404)
    static let brr = Reg(address: 0x4000_4408)
    static let cr1 = Reg(address: 0x4000_440C)

    static func start() {
        RCC.enable(RCC.ahb1enr, 1 << 0)   // GPIOA
        RCC.enable(RCC.apb1enr, 1 << 17)  // USART2
        GPIO.a.alternate(pin: 2, af: 7)
        brr.store((Board.pclk1Hz + Board.baud / 2) / Board.baud)  // USART2 is on APB1
        cr1.store(USART1Regs.cr1UE | USART1Regs.cr1TE)
    }
    static func byte(_ b: UInt8) {
        while sr.load() & USART1Regs.srTXE == 0 {}
        dr.store(UInt32(b))
    }
    static func text(_ s: StaticString) {
        let p = s.utf8Start
        for i in 0..<s.utf8CodeUnitCount { byte(p[i]) }
    }
    static func number(_ v: UInt32) {
        var digits = InlineArray<10, UInt8>(repeating: 0)
        var n = v, k = 0
        repeat {
            digits[k] = UInt8(truncatingIfNeeded: 48 + n % 10)
            n /= 10
            k += 1
        } while n > 0
        while k > 0 {
            k -= 1
            byte(digits[k])
        }
    }
    /// "name count avg max\n"
    static func line(_ name: StaticString, _ t: Tally) {
        text(name)
        byte(32); number(t.count)
        byte(32); number(t.count > 0 ? t.total / t.count : 0)
        byte(32); number(t.max)
        byte(10)
    }
}

/// The counter now; `since(t0)` is what the code between cost. (No closures around the measured calls:
/// a closure capturing the core changes how Swift passes it, and the bench must time the main loop's code.)
@inline(__always) func stamp() -> UInt32 { CycleCounter.read() }
@inline(__always) func since(_ t0: UInt32) -> UInt32 { CycleCounter.read() &- t0 &- CycleCounter.overhead }

/// The core under test, in static RAM like the firmware's.
/// The core under test, in static RAM like the firmware's.
nonisolated(unsafe) var benchCore: BoardCore<FirmwarePort>? = nil
/// The board clock the bench hands the loop (µs ticks it sets itself).
nonisolated(unsafe) var benchTick: UInt64 = 0

@_cdecl("motorbreath_main")
func cycleBenchMain() {
    Board.setupClocks()
    MotorDrive.start()
    Out.start()
    _ = rxRing.isEmpty
    _ = txRing.isEmpty
    Usart1.start(baud: Board.baud)  // the firmware's replies go out here, as on the board
    irqDisable()                    // no interrupts: the bench moves bytes into the ring itself
    CycleCounter.start()
    Out.text(CycleCounter.useDWT ? "counter dwt-cycles\n" : "counter tim5-instructions\n")
    var info = Board.info()
    info.clockHz = 1_000_000  // the bench's ticks are µs
    benchCore = BoardCore(port: FirmwarePort(), info: info, outputLeadTicks: 0, limits: Board.limits)
    runBench(&benchCore!)
    Out.text("done\n")
    while true { wfi() }
}

/// One host message into the receive ring at once (as if it had arrived while the loop slept), then
/// one loop pass handles it: collects its bytes, decodes, answers, queues the reply for the UART.
func message(_ core: inout BoardCore<FirmwarePort>, _ out: inout Outgoing, _ m: HostMessage, seq: UInt8,
             _ name: StaticString, into total: inout Tally) {
    var wire = FixedBytes()
    _ = m.encode(seq: seq, into: &wire)
    for i in 0..<wire.count { _ = rxRing.push(wire[i]) }
    let t0 = stamp()
    loopPass(&core, &out) { benchTick }
    let c = since(t0)
    var t = Tally()
    t.add(c)
    total.add(c)
    Out.line(name, t)
    var bytes = Tally()
    bytes.add(UInt32(wire.count))
    Out.line("bytes", bytes)
}

/// The measurements, on the core by reference, through the main loop's own pass (MainLoop.swift).
func runBench(_ core: inout BoardCore<FirmwarePort>) {
    var out = Outgoing()
    core.boot(now: 0)
    loopPass(&core, &out) { benchTick }
    var all = Tally()
    benchTick = 10
    message(&core, &out, .hello, seq: 0, "pass.hello", into: &all)
    message(&core, &out, .configure(Configure(frameRateHz: 1000, dutyFormat: .u8, failsafeMs: 10_000, reportEvery: 25)),
            seq: 1, "pass.configure", into: &all)
    message(&core, &out, .clockRequest(token: 0xA5A5_5A5A), seq: 2, "pass.clock-request", into: &all)
    message(&core, &out, .heartbeat, seq: 3, "pass.heartbeat", into: &all)
    message(&core, &out, .limitsRequest, seq: 4, "pass.limits-request", into: &all)
    // Full FRAMES messages (234 u8 values, the longest message), and the reference host's 32-frame ones.
    for k: UInt32 in 0..<4 {
        var values = DutyValues()
        for i in 0..<DutyValues.capacity { values.append(UInt16((i * 37 + Int(k)) % 256)) }
        message(&core, &out, .frames(FramesBlock(firstIndex: k * 234, format: .u8, values: values)), seq: UInt8(5 + k),
                "pass.frames-u8-234", into: &all)
    }
    var v32 = DutyValues()
    for i in 0..<32 { v32.append(UInt16(i * 7)) }
    message(&core, &out, .frames(FramesBlock(firstIndex: 936, format: .u8, values: v32)), seq: 9, "pass.frames-u8-32", into: &all)
    message(&core, &out, .start(Start(anchorIndex: 0, anchorTick: 10_000, periodQ32: 1000 << 32)), seq: 10, "pass.start", into: &all)
    Out.line("pass.message", all)

    // One byte into the core on its own (the work per byte that is not a frame's last).
    var byte = Tally()
    for _ in 0..<32 {
        let t0 = stamp()
        core.receive(0x55, now: benchTick)
        byte.add(since(t0))
    }
    core.receive(0, now: benchTick)  // end the junk block (a counted decode error)
    Out.line("rx.byte", byte)

    // 900 frames at 1 kHz: a loop pass at each frame's tick (the frame, a PLAYED every 25 queued and
    // encoded), a pass with nothing due, the next-wake computation and the alarm.
    var frame = Tally(), idle = Tally(), wake = Tally(), arm = Tally()
    for k: UInt64 in 0..<900 {
        let due = 10_000 + k * 1000
        benchTick = due
        var t0 = stamp()
        loopPass(&core, &out) { benchTick }
        frame.add(since(t0))
        benchTick = due + 1
        t0 = stamp()
        loopPass(&core, &out) { benchTick }
        idle.add(since(t0))
        t0 = stamp()
        let next = loopWake(&core, now: due + 1)
        wake.add(since(t0))
        t0 = stamp()
        WakeTimer.arm(wake: next, now: due + 1)
        arm.add(since(t0))
    }
    Out.line("pass.frame", frame)
    Out.line("pass.idle", idle)
    Out.line("loop.wake", wake)
    Out.line("loop.arm", arm)
    var clock = Tally()
    for _ in 0..<16 {
        let t0 = stamp()
        let tick = BoardClock.now()
        clock.add(since(t0))
        if tick == 1 { Out.text("?") }
    }
    Out.line("loop.clock-read", clock)
    // A wake for a byte that does not end a frame: the sleep loop's check and alarm (Main.swift).
    var byteWake = Tally()
    for k: UInt64 in 0..<16 {
        let t0 = stamp()
        Watchdog.refresh()
        let now = BoardClock.now()
        if !receivedFrame(since: 0) {
            WakeTimer.arm(wake: now &+ 1000 &+ k, now: now)
            if !nothingPending(since: 0) { Out.text("?") }
        }
        byteWake.add(since(t0))
    }
    Out.line("loop.byte-wake", byteWake)
    // What runs with interrupts masked on the way to sleep (Main.swift, sleepUnlessPending): the alarm
    // and frame check, timed here without the cpsid before it and the WFI after it (2 instructions the
    // budget adds). The bench already runs masked, so the check is timed exactly as the board runs it.
    var masked = Tally()
    for k: UInt64 in 0..<16 {
        let now = BoardClock.now()
        WakeTimer.arm(wake: now &+ 100_000 &+ k, now: now)
        let t0 = stamp()
        let idle = nothingPending(since: 0)
        masked.add(since(t0))
        if !idle { Out.text("?") }
    }
    Out.line("loop.masked", masked)
    // The other masked section: Usart1.pump with one byte queued. On silicon the data register takes at
    // most two bytes per call (DR and the shift register); QEMU takes any number, so one byte is timed
    // and the budget counts two.
    var pump = Tally()
    for _ in 0..<16 {
        _ = txRing.push(0x55)
        let t0 = stamp()
        Usart1.pump()
        pump.add(since(t0))
    }
    irqDisable()  // pump unmasks on its way out: the bench runs masked
    Out.line("loop.pump-1", pump)

    // The receive interrupt's work per byte, past the 12-cycle entry and exit: its ring push.
    var push = Tally()
    for i in 0..<64 {
        while rxRing.pop() != nil {}
        let t0 = stamp()
        let pushed = rxRing.push(UInt8(i))
        push.add(since(t0))
        if !pushed { Out.text("?") }
    }
    while rxRing.pop() != nil {}
    Out.line("isr.ring-push", push)
    var check = Tally()
    check.add(core.underruns)
    Out.line("check.underruns", check)
    check = Tally()
    check.add(core.nextPlay)
    Out.line("check.frames-played", check)

    // A message read late, after work fell due (the loop held up: a long message's pass, an emulator
    // descheduled): it is handled after the work due by the tick it is read, so its STATUS shows frames
    // 900...905 played at frame 905's tick, not the 900 of the pass before (MainLoop.swift, loopPass).
    benchTick = 10_000 + 905 * 1000
    var heartbeat = FixedBytes()
    _ = HostMessage.heartbeat.encode(seq: 11, into: &heartbeat)
    for i in 0..<heartbeat.count { _ = rxRing.push(heartbeat[i]) }
    loopPass(&core, &out) { benchTick }
    var decoder = FrameDecoder()
    check = Tally()
    for i in 0..<out.wire.count {
        guard case .packet(let packet)? = decoder.push(out.wire[i]) else { continue }
        if case .status(let status)? = try? BoardMessage(packet), status.ackSeq == 11 { check.add(status.nextPlay) }
    }
    Out.line("check.late-status-next-play", check)
}
