// A whole simulated setup in one event loop: the board on its own drifting clock and an impaired link.
// Virtual pacing jumps from event to event (a 10-minute session in seconds, reproducible from a seed);
// real-time pacing sleeps until each event. The host's link reads are what move the world forward.
// The facade over its parts, under one lock: the scheduler (VirtualScheduler.swift), the line
// (SimLine.swift), the board host (BoardHost.swift) and the host's ends (HostEnds.swift).
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import Breath
import MotorWire
import SerialLink

/// A whole simulated setup in one event loop: the board (``BoardCore``, or a ``SimBoardFirmware``) on its
/// own drifting clock, behind a link with ``LinkImpairments``. Virtual pacing jumps from event to event (a
/// 10-minute session in seconds, reproducible from a seed); real-time pacing sleeps until each event. The
/// host's reads on ``hostLink`` are what move the world forward. Records what the board played (``plays``,
/// ``clockHistory``) so tests judge frames on the board's true clock, and can reboot, unplug or stall it.
///
///     let world = SimWorld(impairments: try LinkImpairments.parse("latency=16ms,jitter=8ms"), seed: 42)
///     let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
///     // ... play through `channel`; the world runs as the host reads ...
///     world.unplug(forNs: 500_000_000)
public final class SimWorld: @unchecked Sendable {
    /// How the world's time passes: `virtual` jumps from event to event, `realTime` sleeps until each event.
    public enum Pacing: Sendable { case realTime, virtual }

    /// Its pacing and the board's spec (clock, buffer, limits).
    public let pacing: Pacing
    public let spec: SimBoardSpec
    /// What the link does to bytes (latency, jitter, corruption, loss, ...), each direction.
    public var impairments: LinkImpairments {
        get { line.impairments }
        set { line.impairments = newValue }
    }
    /// The board's clock since its last boot.
    public var clock: SimClock { host.clock }
    /// The board clock of every boot (index = boot number), to judge each frame against the true time.
    public var clockHistory: [SimClock] { host.clockHistory }
    /// The board's logic (never booted when a ``SimBoardFirmware`` runs instead).
    public var board: BoardCore<WorldPort> { host.board }
    /// The foreign board run instead of BoardCore, if any (given at init).
    public var firmware: SimBoardFirmware? { host.firmware }
    /// The board stops reading and servicing (a wedged MCU): bytes pile up in the link.
    public var stalled: Bool {
        get { host.stalled }
        set { host.stalled = newValue }
    }
    /// Sees every host write (one message each) with the world's time; returning false loses it on the
    /// line. For tests that lose one chosen message, or watch what the host sends.
    public var hostWriteFilter: ((_ atNs: UInt64, _ bytes: [UInt8]) -> Bool)?
    /// Sees every read of the host that returns bytes, with the world's time (the host woke for them).
    public var hostReadObserver: ((_ atNs: UInt64, _ bytes: [UInt8]) -> Void)?
    /// Times the board booted again after the first boot (reboots, unplugs).
    public var boots: Int { host.boots }
    /// Bytes put on the line each way (before the impairments), counted by the line, not by either end.
    public var bytesToBoard: Int { line.bytesToBoard }
    public var bytesToHost: Int { line.bytesToHost }

    let mutex = Mutex()
    /// The parts (under `mutex`): the world's time, the line, the board's hardware and firmware.
    var scheduler: VirtualScheduler
    var line: SimLine
    let host: BoardHost
    /// The world's one random stream: the line's impairments and the bootloader's noise, in one order.
    private var draws: SplitMix64

    /// Passes of the virtual-time simulation in a row that may let no time pass. A host polling without a
    /// timeout, or a board asking to be woken now over and over, would otherwise spin for ever, and a
    /// test's time limit cannot stop a loop that never yields: past `stillLimit` passes the world reports
    /// a livelock to the host, as a link error, on every read and write from then on.
    public static let stillLimit = 1_000_000
    /// Time stands still from now on: every pass of the simulation asks for the current instant again, as
    /// a board that keeps asking to be woken now would (virtual pacing only; for the watchdog's tests).
    public var timeStandsStill: Bool {
        get { mutex.withLock { scheduler.frozen } }
        set { mutex.withLock { scheduler.frozen = newValue } }
    }

    /// A world with `spec`'s board (the drift, wander and clock rate in `impairments` override the spec's when
    /// set) behind a link with `impairments`; `seed` makes the impairments and jitter reproducible.
    /// `firmware`: a foreign board to run instead of BoardCore (TimingBench's naive sketch).
    /// `epochNs`: the monotonic instant real-time pacing counts from (default: now); worlds given the same
    /// one have one host clock (several boards played in step). Virtual worlds all begin at 0.
    public init(spec: SimBoardSpec = SimBoardSpec(), impairments: LinkImpairments = LinkImpairments(),
                pacing: Pacing = .virtual, firmware: SimBoardFirmware? = nil, seed: UInt64 = 1, epochNs: UInt64? = nil) {
        self.spec = spec
        self.pacing = pacing
        draws = SplitMix64(seed: seed)
        // "USBFRAME": the adapter's own stream, so the plain link's draws stay as they were
        line = SimLine(impairments: impairments, adapterSeed: seed ^ 0x5553_4246_5241_4D45)
        scheduler = VirtualScheduler(pacing: pacing, epochNs: epochNs)
        host = BoardHost(spec: spec, impairments: impairments, pacing: pacing, now: scheduler.now, firmware: firmware)
        host.boot(now: scheduler.now, send: sendFromBoard)
    }

    /// The host's end of the link, and the host's clock (the world's time, virtual or real).
    public var hostLink: ByteLink { HostEnd(world: self) }
    public var hostClock: HostClock { WorldClock(world: self) }

    /// Every frame played, across reboots (empty when `recordPlays` is off).
    public var plays: [PlayRecord] { mutex.withLock { host.plays } }

    /// Keep every played frame in `plays` (on by default; an hours-long session turns it off and observes).
    public var recordPlays: Bool {
        get { mutex.withLock { host.recordPlays } }
        set { mutex.withLock { host.recordPlays = newValue } }
    }

    /// Sends every frame played from now on, across reboots, to `observer`.
    public func observePlays(_ observer: PlayObserver) { mutex.withLock { host.observePlays(observer) } }
    /// Every drive change the board made since its last boot.
    public var driveChanges: [DriveChange] { mutex.withLock { host.board.port.drive.changes } }
    /// The world's time now, ns.
    public var nowNs: UInt64 { mutex.withLock { scheduler.now.ns } }
    /// The board's UART starts sending `bytes` now, as if the firmware wrote them (for tests of the link's
    /// board-to-host direction; the host sees them as any board output).
    public func boardSends(_ bytes: [UInt8]) { mutex.withLock { sendFromBoard(bytes) } }

    /// Bytes written by the host and not yet taken by the board.
    public var bytesInFlightToBoard: Int { mutex.withLock { line.bytesInFlightToBoard } }

    /// Board power-cycle: its clock restarts from a new offset, state is lost, it announces itself.
    public func reboot() { mutex.withLock { host.reboot(now: scheduler.now, send: sendFromBoard) } }

    /// Cable pulled for `durationNs`: bytes in flight are lost, the link reports a disconnect, and the
    /// board (powered over USB) reboots when it comes back.
    public func unplug(forNs duration: UInt64) {
        mutex.withLock {
            let now = scheduler.now
            host.unplug(now: now, until: now + duration)
            line.cut(now: now)
        }
    }

    /// An Arduino-style reset when the port opens: for `durationNs` a bootloader owns the UART. It
    /// prints a burst of noise, answers every chunk it receives with STK500 sync bytes (never a valid
    /// frame), and ignores what the host sends; then the firmware boots and announces itself.
    public func bootloader(forNs duration: UInt64) {
        mutex.withLock {
            let now = scheduler.now
            line.dropFromBoard(now: now)  // the reset loses whatever the old firmware had in flight
            let noise = host.enterBootloader(now: now, until: now + duration, draws: &draws)
            sendFromBoard(noise)
        }
    }

    /// Advances the world to `t` (virtual pacing; in real time it waits), for harnesses between host steps.
    public func run(until t: UInt64) { mutex.withLock { runLocked(until: HostNanos(t), stopOnHostData: false) } }

    // MARK: - event loop (lock held)

    /// Processes events in time order until `deadline`, or until bytes are ready for the host.
    func runLocked(until deadline: HostNanos, stopOnHostData: Bool) {
        while true {
            host.endOutages(now: scheduler.now, send: sendFromBoard)
            line.releaseAdapterPackets(now: scheduler.now, draws: &draws)
            if stopOnHostData && line.hostHasData(by: scheduler.now) { return }
            var next = deadline
            if let a = line.nextAdapterSend { next = min(next, a) }
            if let d = line.nextToBoard, !host.stalled { next = min(next, d) }
            if let w = host.nextWake(now: scheduler.now) { next = min(next, w) }
            if stopOnHostData, let h = line.nextToHost { next = min(next, h) }
            if let o = host.outageEnds { next = min(next, o) }
            guard let at = scheduler.nextPass(earliest: next) else { return }
            if let wait = scheduler.sleepBefore(at) { mutex.unlockForWait { sleepNs(wait) } }
            scheduler.advance(to: at)
            step()
            if at >= deadline { return }
        }
    }

    /// Delivers the bytes due at the board by now and services it (or its bootloader answers them).
    private func step() {
        guard !host.stalled else { return }
        let now = scheduler.now
        if host.inBootloader {
            var replies: [UInt8] = []
            while let chunk = line.takeForBoard(by: now) { replies += host.bootloaderAnswer(to: chunk) }
            if !replies.isEmpty { sendFromBoard(replies) }
            return
        }
        let tick = host.clock.ticks(at: now)
        while let chunk = line.takeForBoard(by: now) { host.receive(chunk, at: tick, send: sendFromBoard) }
        host.service(now: now, send: sendFromBoard)
    }

    /// Board (or bootloader) bytes onto the line to the host, now; lost while the cable is out.
    private func sendFromBoard(_ bytes: [UInt8]) {
        if !host.unplugged { line.send(bytes, toHost: true, now: scheduler.now, draws: &draws) }
    }

    /// Host bytes onto the line to the board, now.
    func sendFromHost(_ bytes: [UInt8]) { line.send(bytes, toHost: false, now: scheduler.now, draws: &draws) }
}
