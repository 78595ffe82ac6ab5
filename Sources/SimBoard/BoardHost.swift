// The simulated board's hardware around its firmware: power (boot, reboot), the USB cable (unplug), an
// Arduino-style bootloader at reset, a wedged MCU (stall), its drifting clock across boots, and the record
// of what it played. The firmware is BoardCore, or a foreign board (SimBoardFirmware) that only listens.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import Breath
import MotorWire

/// A board other than motorbreath's that a ``SimWorld`` runs at the end of its line instead of BoardCore:
/// it gets every chunk of bytes as it arrives, at the board clock's tick, and neither answers nor asks to
/// be woken (a hobby sketch reading Serial in its loop, as TimingBench's `NaiveBoard`). The world calls it
/// under its lock, on the thread that moves the world.
public protocol SimBoardFirmware: AnyObject {
    /// `bytes` reached the board's UART at board tick `tick`.
    func received(_ bytes: [UInt8], at tick: UInt64)
}

/// The board host. A class, not a value: a play observer called from inside `board.service` reads the
/// clock history back through the world, which a value's exclusive access would forbid.
final class BoardHost {
    /// The board's clock since its last boot, and the clock of every boot (index = boot number).
    private(set) var clock: SimClock
    private(set) var clockHistory: [SimClock]
    /// Motorbreath's board logic (with a foreign firmware it is never booted).
    private(set) var board: BoardCore<WorldPort>
    /// The foreign firmware run instead of `board`, if any.
    let firmware: SimBoardFirmware?
    /// Times the board booted again after the first boot (reboots, unplugs, bootloaders).
    private(set) var boots = 0
    /// The board stops reading and servicing (a wedged MCU): bytes pile up in the line.
    var stalled = false
    /// Until when the cable is out, or a bootloader owns the UART.
    private(set) var unpluggedUntil: HostNanos?
    private(set) var bootloaderUntil: HostNanos?
    /// Frames played before the last boot (the current boot's are in `board.port.plays`).
    private var previousPlays: [PlayRecord] = []
    /// Reads the host's messages as the board gets them (for the play observer: see `deliver`).
    private var watch = FrameDecoder()
    /// Real-time pacing: the board's own wakes come at most once per this many ns (nil: when it asks).
    private let serviceBatchNs: UInt64?
    private var lastService = HostNanos.zero

    /// `spec`'s board booting at `now` (the drift, wander and clock rate in `impairments` override the
    /// spec's when set). Call `boot` to power it on (a foreign firmware needs none).
    init(spec: SimBoardSpec, impairments: LinkImpairments, pacing: SimWorld.Pacing, now: HostNanos,
         firmware: SimBoardFirmware? = nil) {
        var s = spec
        s.driftPPM = impairments.driftPPM != 0 ? impairments.driftPPM : spec.driftPPM
        s.wanderPPMPerMinute = impairments.wanderPPMPerMinute != 0 ? impairments.wanderPPMPerMinute : spec.wanderPPMPerMinute
        if let hz = impairments.clockHz { s.clockHz = hz }
        clock = SimClock(clockHz: UInt64(s.clockHz), offsetTicks: s.offsetTicks, driftPPM: s.driftPPM,
                         wanderPPMPerMinute: s.wanderPPMPerMinute, bootNs: now.ns)
        clockHistory = [clock]
        // In virtual time the board is serviced exactly when it asks: it needs no output lead (a DMA buffer
        // that covers the host's pauses in real time), unless the spec keeps it.
        let lead = pacing == .virtual && !s.leadInVirtualTime ? 0 : UInt64(s.outputLeadMs) * UInt64(s.clockHz) / 1000
        board = BoardCore(port: WorldPort(drive: s.makeMotorPort()), info: s.info, outputLeadTicks: lead, limits: s.limits)
        self.firmware = firmware
        // In real time, the board's own wakes (frame outputs, the failsafe) come at most once per half output
        // lead (10 ms): each service hands the PWM every level due within the lead, so every frame still goes
        // out at its own tick, ahead of time, like a DMA-fed timer refilled at 100 Hz; the world (and the host
        // thread that moves it) then wakes about 100 times a second instead of once per frame. Arriving bytes
        // are still handled at once. Virtual time services the board exactly when it asks.
        serviceBatchNs = pacing == .realTime ? UInt64(spec.outputLeadMs) * 500_000 : nil
    }

    var unplugged: Bool { unpluggedUntil != nil }
    var inBootloader: Bool { bootloaderUntil != nil }
    /// Every frame played, across reboots.
    var plays: [PlayRecord] { previousPlays + board.port.plays }
    var recordPlays: Bool {
        get { board.port.recordPlays }
        set { board.port.recordPlays = newValue }
    }
    func observePlays(_ observer: PlayObserver) { board.port.observer = observer }

    // MARK: - power

    /// Powers BoardCore on at `now`: it announces itself through `send`. A foreign firmware has no boot.
    func boot(now: HostNanos, send: ([UInt8]) -> Void) {
        guard firmware == nil else { return }
        watch.reset()
        board.boot(now: clock.ticks(atHostNs: now.ns))
        drain(send)
    }

    /// Power-cycle at `now`: the clock restarts from a new offset, state is lost, the board announces itself.
    func reboot(now: HostNanos, send: ([UInt8]) -> Void) {
        previousPlays += board.port.plays
        boots += 1
        let offset = clock.ticks(atHostNs: now.ns) &* 7 % 1_000_000_007  // a different, unrelated count
        clock = SimClock(clockHz: clock.clockHz, offsetTicks: offset, driftPPM: clock.driftPPM(atHostNs: now.ns),
                         wanderPPMPerMinute: clock.wanderPPMPerMinute, bootNs: now.ns)
        clockHistory.append(clock)
        var port = WorldPort(drive: SimMotorPort(sensor: board.port.drive.sensorSim?.rebooted()))
        port.boot = boots
        port.recordPlays = board.port.recordPlays
        port.observer = board.port.observer
        board = BoardCore(port: port, info: board.info, outputLeadTicks: board.outputLeadTicks, limits: board.limits)
        boot(now: now, send: send)
    }

    /// The cable is out from `now` until `until`: the motor stops; the board reboots when it comes back.
    func unplug(now: HostNanos, until: HostNanos) {
        unpluggedUntil = until
        board.port.off(at: clock.ticks(atHostNs: now.ns))
    }

    /// A reset at `now` hands the UART to a bootloader until `until`; returns the noise it prints at once
    /// (96 bytes from the world's draws, then STK500 sync bytes).
    func enterBootloader(now: HostNanos, until: HostNanos, draws rng: inout SplitMix64) -> [UInt8] {
        bootloaderUntil = until
        board.port.off(at: clock.ticks(atHostNs: now.ns))
        var noise: [UInt8] = []
        for _ in 0..<96 { noise.append(UInt8(truncatingIfNeeded: rng.next())) }
        return noise + [0x00, 0x14, 0x10, 0x00, 0x15, 0x00]
    }

    /// The instant the next outage ends (the cable back, the bootloader done), if one is on.
    var outageEnds: HostNanos? {
        switch (unpluggedUntil, bootloaderUntil) {
        case let (u?, b?): return min(u, b)
        case let (u?, nil): return u
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }

    /// Ends the outages due by `now`, the cable first: each boots the firmware again.
    func endOutages(now: HostNanos, send: ([UInt8]) -> Void) {
        if let u = unpluggedUntil, now >= u {
            unpluggedUntil = nil
            reboot(now: now, send: send)
        }
        if let b = bootloaderUntil, now >= b {
            bootloaderUntil = nil
            reboot(now: now, send: send)
        }
    }

    // MARK: - running

    /// When the board next wants servicing, on the world's time; nil when it does not (stalled, in the
    /// bootloader, a foreign firmware, or nothing scheduled). Real-time pacing batches these wakes.
    func nextWake(now: HostNanos) -> HostNanos? {
        guard firmware == nil, !stalled, bootloaderUntil == nil else { return nil }
        // The tick goes into a local first: computing it inside the call would make Swift copy the whole
        // board (its logs included) to keep the accesses apart.
        let tick = clock.ticks(atHostNs: now.ns)
        let w = board.nextWake(now: tick)
        guard w != UInt64.max else { return nil }
        let at = max(now, HostNanos(clock.hostNs(atTick: w)))
        guard let every = serviceBatchNs else { return at }
        return max(at, lastService + every)
    }

    /// What the bootloader answers to a chunk it receives: STK_INSYNC, STK_OK (what optiboot says to anything).
    func bootloaderAnswer(to chunk: [UInt8]) -> [UInt8] { [0x14, 0x10] }

    /// A chunk of bytes reached the board's UART at `tick`. A real board's UART sends its replies while more
    /// bytes arrive, so a burst (this process woken late, a chunk of many messages at once) must not fill the
    /// outbox's 8 places with replies and crowd out the vibration samples or the replies themselves: when
    /// the outbox gets down to the 3 places samples leave free, what it holds goes out through `send` at
    /// once. (Otherwise the replies go out with the service that follows, in one write, as before.)
    func receive(_ chunk: [UInt8], at tick: BoardTicks, send: ([UInt8]) -> Void) {
        if let firmware { return firmware.received(chunk, at: tick.raw) }
        for b in chunk {
            deliver(b, at: tick.raw)
            if board.outgoingCount >= Outbox.capacity - Outbox.keptFromSamples { drain(send) }
        }
    }

    /// Services BoardCore at `now` until it asks for a later wake (at most 256 rounds), sending what each
    /// round produced through `send` as it is produced (each round is one write on the line).
    func service(now: HostNanos, send: ([UInt8]) -> Void) {
        guard firmware == nil else { return }
        var rounds = 0
        let t = clock.ticks(atHostNs: now.ns)
        lastService = now
        catchUpSampling(until: t, send: send)
        repeat {
            board.service(now: t)
            drain(send)
            rounds += 1
        } while board.nextWake(now: t) <= t && rounds < 256
    }

    /// A late wake (this process descheduled on a busy machine) would read every sample due since the last
    /// service at once and fill the outbox's 8 places, dropping all but five batches; a real board's UART
    /// empties the outbox while the board samples. So the samples due before `t` are read a batch at a time,
    /// each batch sent as it fills. Only the sampling catches up: playback runs at `t`, after every byte
    /// that arrived by then (servicing it earlier could play a frame before it arrived).
    private func catchUpSampling(until t: UInt64, send: ([UInt8]) -> Void) {
        while board.sampling.isOn {
            let step = board.sampling.nextTick &+ board.sampling.intervalTicks &* UInt64(board.sampling.batch)
            guard step < t else { return }
            board.serviceSampling(now: step)
            drain(send)
        }
    }

    /// Hands one byte to the board. With a play observer, a REPLACE the byte completes is read here too
    /// (its own decoder, beside the board's) and told to the observer with the board's next frame to play.
    private func deliver(_ b: UInt8, at tick: UInt64) {
        guard let observer = board.port.observer else { return board.receive(b, now: tick) }
        if case .packet(let p)? = watch.push(b), p.type == MessageType.replace.rawValue,
           case .replace(let block)? = try? HostMessage(p) {
            observer.replaceArrived(boot: board.port.boot, block: block, nextPlay: board.nextPlay, tick: tick)
        }
        board.receive(b, now: tick)
    }

    /// Sends what the board has queued, as one write.
    private func drain(_ send: ([UInt8]) -> Void) {
        var wire = FixedBytes()
        var out: [UInt8] = []
        while board.nextOutgoing(into: &wire) { for i in 0..<wire.count { out.append(wire[i]) } }
        if !out.isEmpty { send(out) }
    }
}
