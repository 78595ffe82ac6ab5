// A whole simulated setup in one event loop: the board on its own drifting clock and an impaired link.
// Virtual pacing jumps from event to event (a 10-minute session in seconds, reproducible from a seed);
// real-time pacing sleeps until each event. The host's link reads are what move the world forward.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import Breath
import Glibc
import MotorWire
import SerialLink

/// One frame the board output, on its own clock.
public struct PlayRecord: Sendable {
    public var boot: Int
    public var index: UInt32
    public var due: UInt64
    public var tick: UInt64
    public var raw: UInt16
}

/// Receives every frame the simulated board plays, as it plays (so a long session can be judged without
/// keeping its frames). Called on the thread that moves the simulated world (the host's reads).
public protocol PlayObserver: AnyObject {
    func played(_ record: PlayRecord)
    /// A REPLACE reached the board at `tick`, when its next frame to play was `nextPlay`: the values for
    /// frames before it came after the board had output them (the board keeps what it played).
    func replaceArrived(boot: Int, block: FramesBlock, nextPlay: UInt32, tick: UInt64)
}

extension PlayObserver {
    public func replaceArrived(boot: Int, block: FramesBlock, nextPlay: UInt32, tick: UInt64) {}
}

/// The simulated board's port: drive changes (for the motor model) and every played frame (for timing).
public struct WorldPort: MotorPort, @unchecked Sendable {
    public var drive = SimMotorPort()
    /// Every frame played (when `recordPlays` is on; tests read it).
    public var plays: [PlayRecord] = []
    var recordPlays = true
    var observer: PlayObserver?
    var boot = 0

    public mutating func schedule(level: Int16, at tick: UInt64) { drive.schedule(level: level, at: tick) }
    public mutating func off(at tick: UInt64) { drive.off(at: tick) }
    public mutating func played(index: UInt32, due: UInt64, at tick: UInt64, raw: UInt16) {
        let record = PlayRecord(boot: boot, index: index, due: due, tick: tick, raw: raw)
        if recordPlays { plays.append(record) }
        observer?.played(record)
    }
}

/// A whole simulated setup in one event loop: the board (``BoardCore``, or a naive sketch) on its own
/// drifting clock, behind a link with ``LinkImpairments``. Virtual pacing jumps from event to event (a
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
    /// `motorbreath` runs BoardCore; `naive` is a hobby sketch: each received byte is the duty, applied on arrival.
    public enum BoardKind: Sendable { case motorbreath, naive }

    /// Its pacing, the board it simulates, and the board's spec (clock, buffer, limits).
    public let pacing: Pacing
    public let kind: BoardKind
    public let spec: SimBoardSpec
    /// What the link does to bytes (latency, jitter, corruption, loss, ...), each direction.
    public var impairments: LinkImpairments
    /// The board's clock since its last boot.
    public private(set) var clock: SimClock
    /// The board clock of every boot (index = boot number), to judge each frame against the true time.
    public private(set) var clockHistory: [SimClock] = []
    /// The board's logic (`motorbreath` kind; unused by the naive board).
    public private(set) var board: BoardCore<WorldPort>
    /// Naive board: (arrival tick, byte) of every byte received.
    public private(set) var naiveLog: [(tick: UInt64, value: UInt8)] = []
    /// The board stops reading and servicing (a wedged MCU): bytes pile up in the link.
    public var stalled = false
    /// Sees every host write (one message each) with the world's time; returning false loses it on the
    /// line. For tests that lose one chosen message, or watch what the host sends.
    public var hostWriteFilter: ((_ atNs: UInt64, _ bytes: [UInt8]) -> Bool)?
    /// Sees every read of the host that returns bytes, with the world's time (the host woke for them).
    public var hostReadObserver: ((_ atNs: UInt64, _ bytes: [UInt8]) -> Void)?
    /// Times the board booted again after the first boot (reboots, unplugs).
    public private(set) var boots = 0
    /// Bytes put on the line each way (before the impairments), counted by the line, not by either end.
    public private(set) var bytesToBoard = 0
    public private(set) var bytesToHost = 0

    private let mutex = Mutex()
    private var now: UInt64 = 0
    private let epoch: UInt64
    private var rng: SplitMix64
    /// The USB-serial adapter when `impairments.model` names one (built on first use, from `adapterSeed`).
    private var adapter: LinkAdapter?
    private let adapterSeed: UInt64
    private var toBoard: [(at: UInt64, bytes: [UInt8])] = []
    private var toHost: [(at: UInt64, bytes: [UInt8])] = []
    private var lastToBoard: UInt64 = 0
    private var lastToHost: UInt64 = 0
    private var unpluggedUntil: UInt64?
    private var bootloaderUntil: UInt64?
    private var previousPlays: [PlayRecord] = []
    /// Reads the host's messages as the board gets them (for the play observer: see `deliver`).
    private var watch = FrameDecoder()
    /// When the board was last serviced (real-time pacing batches its own wakes, see `boardWakeBatched`).
    private var lastServiceNs: UInt64 = 0
    /// Passes of the virtual-time simulation in a row that let no time pass. A host polling without a
    /// timeout, or a board asking to be woken now over and over, would otherwise spin for ever, and a
    /// test's time limit cannot stop a loop that never yields: past `stillLimit` passes the world reports
    /// a livelock to the host, as a link error, on every read and write from then on.
    private var stillPasses = 0
    private var livelocked = false
    public static let stillLimit = 1_000_000
    /// Time stands still from now on: every pass of the simulation asks for the current instant again, as
    /// a board that keeps asking to be woken now would (virtual pacing only; for the watchdog's tests).
    public var timeStandsStill: Bool {
        get { mutex.withLock { frozen } }
        set { mutex.withLock { frozen = newValue } }
    }
    private var frozen = false

    /// A world with `spec`'s board (the drift, wander and clock rate in `impairments` override the spec's when
    /// set) behind a link with `impairments`; `seed` makes the impairments and jitter reproducible.
    /// `epochNs`: the monotonic instant real-time pacing counts from (default: now); worlds given the same
    /// one have one host clock (several boards played in step). Virtual worlds all begin at 0.
    public init(spec: SimBoardSpec = SimBoardSpec(), impairments: LinkImpairments = LinkImpairments(),
                pacing: Pacing = .virtual, kind: BoardKind = .motorbreath, seed: UInt64 = 1, epochNs: UInt64? = nil) {
        self.spec = spec
        self.impairments = impairments
        self.pacing = pacing
        self.kind = kind
        rng = SplitMix64(seed: seed)
        adapterSeed = seed ^ 0x5553_4246_5241_4D45  // "USBFRAME": its own stream, so the plain link's draws stay as they were
        epoch = epochNs ?? MonotonicClock.nowNs()
        // Real time starts at the epoch's reading now: a world counting from 0 (the monotonic clock itself,
        // one time base with the ports beside it) boots its board now, not at the clock's origin.
        if pacing == .realTime { now = MonotonicClock.nowNs() - epoch }
        var s = spec
        s.driftPPM = impairments.driftPPM != 0 ? impairments.driftPPM : spec.driftPPM
        s.wanderPPMPerMinute = impairments.wanderPPMPerMinute != 0 ? impairments.wanderPPMPerMinute : spec.wanderPPMPerMinute
        if let hz = impairments.clockHz { s.clockHz = hz }
        clock = SimClock(clockHz: UInt64(s.clockHz), offsetTicks: s.offsetTicks, driftPPM: s.driftPPM,
                         wanderPPMPerMinute: s.wanderPPMPerMinute, bootNs: now)
        // In virtual time the board is serviced exactly when it asks: it needs no output lead (a DMA buffer
        // that covers the host's pauses in real time), unless the spec keeps it.
        let lead = pacing == .virtual && !s.leadInVirtualTime ? 0 : UInt64(s.outputLeadMs) * UInt64(s.clockHz) / 1000
        board = BoardCore(port: WorldPort(), info: s.info, outputLeadTicks: lead, limits: s.limits)
        clockHistory = [clock]
        if kind == .motorbreath { bootBoard() }
    }

    /// The host's end of the link, and the host's clock (the world's time, virtual or real).
    public var hostLink: ByteLink { HostEnd(world: self) }
    public var hostClock: HostClock { WorldClock(world: self) }

    /// Every frame played, across reboots (empty when `recordPlays` is off).
    public var plays: [PlayRecord] { mutex.withLock { previousPlays + board.port.plays } }

    /// Keep every played frame in `plays` (on by default; an hours-long session turns it off and observes).
    public var recordPlays: Bool {
        get { mutex.withLock { board.port.recordPlays } }
        set { mutex.withLock { board.port.recordPlays = newValue } }
    }

    /// Sends every frame played from now on, across reboots, to `observer`.
    public func observePlays(_ observer: PlayObserver) { mutex.withLock { board.port.observer = observer } }
    /// Every drive change the board made since its last boot.
    public var driveChanges: [DriveChange] { mutex.withLock { board.port.drive.changes } }
    /// The world's time now, ns.
    public var nowNs: UInt64 { mutex.withLock { now } }
    /// The board's UART starts sending `bytes` now, as if the firmware wrote them (for tests of the link's
    /// board-to-host direction; the host sees them as any board output).
    public func boardSends(_ bytes: [UInt8]) { mutex.withLock { sendRaw(bytes) } }

    /// Bytes written by the host and not yet taken by the board.
    public var bytesInFlightToBoard: Int { mutex.withLock { toBoard.reduce(0) { $0 + $1.bytes.count } } }

    /// Board power-cycle: its clock restarts from a new offset, state is lost, it announces itself.
    public func reboot() { mutex.withLock { rebootLocked() } }

    /// Cable pulled for `durationNs`: bytes in flight are lost, the link reports a disconnect, and the
    /// board (powered over USB) reboots when it comes back.
    public func unplug(forNs duration: UInt64) {
        mutex.withLock {
            unpluggedUntil = now + duration
            toBoard.removeAll()
            toHost.removeAll()
            adapter?.clear(now: now)
            board.port.off(at: clock.ticks(atHostNs: now))
        }
    }

    /// An Arduino-style reset when the port opens: for `durationNs` a bootloader owns the UART. It
    /// prints a burst of noise, answers every chunk it receives with STK500 sync bytes (never a valid
    /// frame), and ignores what the host sends; then the firmware boots and announces itself.
    public func bootloader(forNs duration: UInt64) {
        mutex.withLock {
            bootloaderUntil = now + duration
            board.port.off(at: clock.ticks(atHostNs: now))
            toHost.removeAll()  // the reset loses whatever the old firmware had in flight
            adapter?.clear(now: now)
            var noise: [UInt8] = []
            for _ in 0..<96 { noise.append(UInt8(truncatingIfNeeded: rng.next())) }
            noise += [0x00, 0x14, 0x10, 0x00, 0x15, 0x00]
            sendRaw(noise)
        }
    }

    /// Advances the world to `t` (virtual pacing; in real time it waits), for harnesses between host steps.
    public func run(until t: UInt64) { mutex.withLock { runLocked(until: t, stopOnHostData: false) } }

    // MARK: - event loop (lock held)

    private func rebootLocked() {
        previousPlays += board.port.plays
        boots += 1
        let offset = clock.ticks(atHostNs: now) &* 7 % 1_000_000_007  // a different, unrelated count
        clock = SimClock(clockHz: clock.clockHz, offsetTicks: offset, driftPPM: clock.driftPPM(atHostNs: now),
                         wanderPPMPerMinute: clock.wanderPPMPerMinute, bootNs: now)
        clockHistory.append(clock)
        var port = WorldPort()
        port.boot = boots
        port.recordPlays = board.port.recordPlays
        port.observer = board.port.observer
        board = BoardCore(port: port, info: board.info, outputLeadTicks: board.outputLeadTicks, limits: board.limits)
        bootBoard()
    }

    private func bootBoard() {
        watch.reset()
        board.boot(now: clock.ticks(atHostNs: now))
        drainBoard()
    }

    private func realNow() -> UInt64 { MonotonicClock.nowNs() - epoch }

    private func boardWake() -> UInt64 {
        guard kind == .motorbreath, !stalled, bootloaderUntil == nil else { return UInt64.max }
        // The tick goes into a local first: computing it inside the call would make Swift copy the whole
        // board (its logs included) to keep the accesses apart.
        let tick = clock.ticks(atHostNs: now)
        let w = board.nextWake(now: tick)
        return w == UInt64.max ? w : max(now, clock.hostNs(atTick: w))
    }

    /// In real time, the board's own wakes (frame outputs, the failsafe) come at most once per half output
    /// lead (10 ms): each service hands the PWM every level due within the lead, so every frame still
    /// goes out at its own tick, ahead of time, like a DMA-fed timer refilled at 100 Hz; the world (and the
    /// host thread that moves it) then wakes about 100 times a second instead of once per frame. Arriving
    /// bytes are still handled at once. Virtual time services the board exactly when it asks.
    private func boardWakeBatched() -> UInt64 {
        let w = boardWake()
        guard pacing == .realTime, w != UInt64.max else { return w }
        let every = UInt64(spec.outputLeadMs) * 500_000
        return max(w, lastServiceNs + every)
    }

    /// Processes events in time order until `deadline`, or until bytes are ready for the host.
    private func runLocked(until deadline: UInt64, stopOnHostData: Bool) {
        while true {
            if let u = unpluggedUntil, now >= u {
                unpluggedUntil = nil
                rebootLocked()
            }
            if let b = bootloaderUntil, now >= b {
                bootloaderUntil = nil
                rebootLocked()
            }
            releaseAdapterPackets()
            if stopOnHostData, let first = toHost.first, first.at <= now { return }
            var next = deadline
            if let a = adapter?.nextSend() { next = min(next, a) }
            if let d = toBoard.first?.at, !stalled { next = min(next, d) }
            next = min(next, boardWakeBatched())
            if stopOnHostData, let h = toHost.first?.at { next = min(next, h) }
            if let u = unpluggedUntil { next = min(next, u) }
            if let b = bootloaderUntil { next = min(next, b) }
            next = frozen && pacing == .virtual ? now : max(next, now)
            if pacing == .virtual {
                stillPasses = next > now ? 0 : stillPasses + 1
                if stillPasses > Self.stillLimit { livelocked = true }
                if livelocked { return }
            }
            if pacing == .realTime {
                let real = realNow()
                if next > real {
                    mutex.unlockForWait { sleepNs(next - real) }
                }
            }
            now = next
            step()
            if now >= deadline { return }
        }
    }

    /// Delivers due bytes to the board and services it.
    private func step() {
        guard !stalled else { return }
        if bootloaderUntil != nil {
            var replies: [UInt8] = []
            while let first = toBoard.first, first.at <= now {
                toBoard.removeFirst()
                replies += [0x14, 0x10]  // STK_INSYNC, STK_OK: what optiboot says to anything
            }
            if !replies.isEmpty { sendRaw(replies) }
            return
        }
        let tick = clock.ticks(atHostNs: now)
        while let first = toBoard.first, first.at <= now {
            toBoard.removeFirst()
            for b in first.bytes {
                if kind == .naive { naiveLog.append((tick, b)) } else { deliver(b, at: tick) }
            }
        }
        guard kind == .motorbreath else { return }
        var rounds = 0
        let t = clock.ticks(atHostNs: now)
        lastServiceNs = now
        repeat {
            board.service(now: t)
            drainBoard()
            rounds += 1
        } while board.nextWake(now: t) <= t && rounds < 256
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

    private func drainBoard() {
        var wire = FixedBytes()
        var out: [UInt8] = []
        while board.nextOutgoing(into: &wire) { for i in 0..<wire.count { out.append(wire[i]) } }
        if !out.isEmpty { sendRaw(out) }
    }

    /// Board (or bootloader) bytes to the host; lost while the cable is out.
    private func sendRaw(_ bytes: [UInt8]) {
        if unpluggedUntil == nil { send(bytes, toHost: true) }
    }

    /// Queues bytes for the other side through the impairments (FIFO: nothing overtakes).
    private func send(_ bytes: [UInt8], toHost: Bool) {
        if toHost { bytesToHost += bytes.count } else { bytesToBoard += bytes.count }
        var data: [UInt8] = []
        data.reserveCapacity(bytes.count)
        if impairments.burstPerChunk > 0 && rng.unit() < impairments.burstPerChunk {
            for _ in 0..<(1 + rng.next() % 32) { data.append(UInt8(truncatingIfNeeded: rng.next())) }
        }
        for b in bytes {
            if impairments.dropPerByte > 0 && rng.unit() < impairments.dropPerByte { continue }
            var v = b
            if impairments.corruptPerByte > 0 && rng.unit() < impairments.corruptPerByte { v ^= 1 << UInt8(rng.next() % 8) }
            data.append(v)
            if impairments.duplicatePerByte > 0 && rng.unit() < impairments.duplicatePerByte { data.append(v) }
        }
        if var a = adapterFor() {
            // The adapter's mechanics set the times: to the board in the next USB frame plus the UART; to the
            // host through the chip's buffer, released as packets by `releaseAdapterPackets`.
            if toHost {
                a.fromBoard(data, now: now)
                adapter = a
            } else {
                let at = a.toBoard(count: data.count, now: now)
                adapter = a
                queue(data, toHost: false, at: at)
            }
            return
        }
        var delay = Double(impairments.latencyNs)
        if impairments.jitterNs > 0 { delay += (rng.unit() * 2 - 1) * Double(impairments.jitterNs) }
        if toHost {
            let at = max(lastToHost, now + UInt64(max(0, delay)))
            lastToHost = at
            self.toHost.append((at, data))
        } else {
            let at = max(lastToBoard, now + UInt64(max(0, delay)))
            lastToBoard = at
            toBoard.append((at, data))
        }
    }

    /// The adapter for `impairments.model` (rebuilt if the model was changed); nil for the plain link.
    private func adapterFor() -> LinkAdapter? {
        guard let m = impairments.model else { return nil }
        if adapter?.model != m {
            var r = SplitMix64(seed: adapterSeed)
            adapter = LinkAdapter(model: m, phase: r.next() % LinkModel.usbFrameNs, timerPhase: r.next() % max(m.holdNs, 1))
        }
        return adapter
    }

    /// Moves the packets the adapter has sent by now to the host's side of the link.
    private func releaseAdapterPackets() {
        guard adapter != nil else { return }
        while let at = adapter?.nextSend(), at <= now {
            let packet = adapter!.send(at: at)
            queue(packet, toHost: true, at: at)
        }
    }

    /// Queues an adapter's bytes, due at `at`, plus latency ± jitter when set (the host's USB stack); FIFO.
    private func queue(_ bytes: [UInt8], toHost: Bool, at: UInt64) {
        guard !bytes.isEmpty else { return }
        var extra = Double(impairments.latencyNs)
        if impairments.jitterNs > 0 { extra += (rng.unit() * 2 - 1) * Double(impairments.jitterNs) }
        let due = at + UInt64(max(0, extra))
        if toHost {
            lastToHost = max(lastToHost, due)
            self.toHost.append((lastToHost, bytes))
        } else {
            lastToBoard = max(lastToBoard, due)
            toBoard.append((lastToBoard, bytes))
        }
    }

    // MARK: - the host's end

    /// What the host is told once the simulation has livelocked: a link that is gone for good, so a
    /// session ends instead of reconnecting (its pauses wait on virtual time, which no longer moves).
    private var livelockError: LinkError {
        .halted(path: "simulated board", reason: "virtual time stood still for \(Self.stillLimit) passes of the simulation: a livelock")
    }

    fileprivate func hostWrite(_ bytes: [UInt8]) throws(LinkError) {
        try mutex.withLock { () throws(LinkError) in
            if livelocked { throw livelockError }
            if unpluggedUntil != nil { throw LinkError.disconnected(path: "simulated board") }
            if pacing == .realTime { runLocked(until: max(now, realNow()), stopOnHostData: false) }
            if let filter = hostWriteFilter, !filter(now, bytes) { return }
            send(bytes, toHost: false)
        }
    }

    fileprivate func hostRead(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8] {
        try hostRead(maxBytes: maxBytes, timeoutNs: UInt64(max(0, timeoutMs)) * 1_000_000)
    }

    fileprivate func hostRead(maxBytes: Int, timeoutNs: UInt64) throws(LinkError) -> [UInt8] {
        try mutex.withLock { () throws(LinkError) in
            if livelocked { throw livelockError }
            if unpluggedUntil != nil && now < unpluggedUntil! {
                runLocked(until: min(unpluggedUntil!, now + timeoutNs), stopOnHostData: false)
                // Unplugged is a reason to reconnect; a livelock during the unplug is not.
                throw livelocked ? livelockError : LinkError.disconnected(path: "simulated board")
            }
            let start = pacing == .realTime ? max(now, realNow()) : now
            runLocked(until: start + timeoutNs, stopOnHostData: true)
            if livelocked { throw livelockError }
            var out: [UInt8] = []
            while let first = toHost.first, first.at <= now, out.count + first.bytes.count <= maxBytes || out.isEmpty {
                toHost.removeFirst()
                out += first.bytes
            }
            if !out.isEmpty { hostReadObserver?(now, out) }
            return out
        }
    }

    fileprivate func hostNow() -> UInt64 {
        mutex.withLock { pacing == .realTime ? max(now, realNow()) : now }
    }

    final class HostEnd: FineTimeoutLink, @unchecked Sendable {
        let world: SimWorld
        init(world: SimWorld) { self.world = world }
        var name: String { "simulated board" }
        func write(_ bytes: [UInt8], timeoutMs: Int) throws(LinkError) { try world.hostWrite(bytes) }
        func read(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8] {
            try world.hostRead(maxBytes: maxBytes, timeoutMs: timeoutMs)
        }
        func readFine(maxBytes: Int, timeoutNs: UInt64) throws(LinkError) -> [UInt8] {
            try world.hostRead(maxBytes: maxBytes, timeoutNs: timeoutNs)
        }
        func close() {}
    }

    struct WorldClock: HostClock {
        let world: SimWorld
        func nowNs() -> UInt64 { world.hostNow() }
    }
}
