// BoardCore running on the host: its own thread, its own drifting clock, talking over any ByteLink.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import Breath
import Glibc
import MotorWire
import SerialLink

/// A simulated motor board serving one link until stopped or the link closes.
public final class SimulatedBoard: @unchecked Sendable {
    public let spec: SimBoardSpec
    public let clock: SimClock
    private let link: ByteLink
    private let mutex = Mutex()
    private var core: BoardCore<SimMotorPort>
    private var running = true
    private var thread: pthread_t?
    /// Keep serving when the link reports a disconnect (a board process whose host went away).
    public var persistent = false
    /// A fault to inject: `afterStartS` seconds after the first START, the board hears nothing for `ms`
    /// (its receive line cut) while its clock, its output and its failsafe go on.
    public var deafness: (afterStartS: Double, ms: Int)?
    /// Where settled drive changes go as the board runs (nil: kept in memory, for in-process tests).
    public var driveLog: DriveLog? {
        didSet { driveLog?.header(clock) }
    }
    private var firstStartNs: UInt64?
    /// A promise of the protocol this board breaks on purpose (conformance tests only).
    public var breakage: Breakage?
    private var breakageContext = BreakageContext()

    public init(spec: SimBoardSpec, link: ByteLink) {
        self.spec = spec
        self.link = link
        clock = SimClock(clockHz: UInt64(spec.clockHz), offsetTicks: spec.offsetTicks, driftPPM: spec.driftPPM,
                         wanderPPMPerMinute: spec.wanderPPMPerMinute,
                         bootNs: MonotonicClock.nowNs())
        core = BoardCore(port: spec.makeMotorPort(), info: spec.info,
                         outputLeadTicks: UInt64(spec.outputLeadMs) * UInt64(spec.clockHz) / 1000, limits: spec.limits)
    }

    /// A board on the far end of a new in-memory link; returns the host's end.
    public static func inProcess(spec: SimBoardSpec = SimBoardSpec()) -> (link: ByteLink, board: SimulatedBoard) {
        let (host, boardEnd) = InMemoryLink.pair()
        let board = SimulatedBoard(spec: spec, link: boardEnd)
        board.start()
        return (host, board)
    }

    public var now: UInt64 { clock.ticks(atHostNs: MonotonicClock.nowNs()) }

    /// Reads state under the board's lock.
    public func inspect<T>(_ body: (BoardCore<SimMotorPort>) -> T) -> T {
        mutex.withLock { body(core) }
    }

    /// Boots the board and starts serving on a background thread.
    public func start() {
        mutex.withLock { core.boot(now: now) }
        flush()
        thread = startThread { self.serve() }
    }

    /// Serves on the calling thread until `stop()` or the link disconnects.
    public func serve() {
        while mutex.withLock({ running }) {
            let wait: Int = mutex.withLock {
                let t = now
                let wake = core.nextWake(now: t)
                guard wake != UInt64.max else { return 5 }
                let ns = clock.hostNs(atTick: wake)
                let host = MonotonicClock.nowNs()
                // Rounded up: a wait rounded down to 0 ms would spin until the wake, a busy loop at every
                // frame. Waking up to 1 ms late costs nothing: frames are handed over `outputLeadMs` early.
                return ns <= host ? 0 : min(5, Int((ns - host + 999_999) / 1_000_000))
            }
            var bytes: [UInt8] = []
            do {
                bytes = try link.read(maxBytes: 4096, timeoutMs: wait)
            } catch {
                // A hardware board outlives its host: keep the clock and the failsafe running.
                if !persistent {
                    mutex.withLock {
                        running = false
                        core.port.off(at: now)
                    }
                    return
                }
                usleep(UInt32(max(1, wait) * 1000))
            }
            mutex.withLock {
                let t = now
                if isDeaf(atHostNs: MonotonicClock.nowNs()) { bytes = [] }
                if breakage != nil { for b in bytes { breakageContext.heard(b) } }
                for b in bytes { core.receive(b, now: t) }
                if firstStartNs == nil && core.state == .armed { firstStartNs = MonotonicClock.nowNs() }
                // Service until nothing is due; the core pauses when its outbox is nearly full.
                var rounds = 0
                repeat {
                    core.service(now: now)
                    drainLocked()
                    rounds += 1
                } while core.nextWake(now: now) <= now && rounds < 64
                breakageContext.heardSeqs.removeAll()
                if let log = driveLog { log.changes(core.port.takeSettled(before: now)) }
            }
        }
    }

    private func isDeaf(atHostNs ns: UInt64) -> Bool {
        guard let d = deafness, let start = firstStartNs else { return false }
        let from = start + UInt64(d.afterStartS * 1e9)
        return ns >= from && ns < from + UInt64(d.ms) * 1_000_000
    }

    private func flush() { mutex.withLock { drainLocked() } }

    private func drainLocked() {
        var wire = FixedBytes()
        var out: [UInt8] = []
        while core.nextOutgoing(into: &wire) {
            if let breakage {
                breakageContext.format = core.config?.dutyFormat
                breakageContext.sampleIntervalTicks = core.sampling.intervalTicks
                out += breakage.rewrite(wire: wire, &breakageContext)
            } else {
                for i in 0..<wire.count { out.append(wire[i]) }
            }
        }
        if !out.isEmpty { try? link.write(out, timeoutMs: 100) }
    }

    /// Asks `serve()` to return (safe from any thread).
    public func requestStop() { mutex.withLock { running = false } }

    /// Stops serving and waits for the thread; the motor is left off. The drive log ends with what the
    /// board had done by itself (this last off is the process ending, not the board deciding).
    public func stop() {
        mutex.withLock {
            running = false
            let t = now
            if let log = driveLog {
                log.changes(core.port.takeSettled(before: t + 1))
                log.end(tick: t, lastRx: core.lastValidRx, failsafeTrips: core.failsafeTrips)
                driveLog = nil  // the off below is the process ending, not the board
            }
            core.port.off(at: t)
        }
        if let t = thread {
            pthread_join(t, nil)
            thread = nil
        }
    }

    /// The felt amplitude over board ticks [from, to), sampled every `stepTicks`, through the motor model.
    /// Every drive change the board made, on its clock.
    public var driveChanges: [DriveChange] { mutex.withLock { core.port.changes } }

    public func felt(from: UInt64, to: UInt64, stepTicks: UInt64, model: some MotorModel) -> [Double] {
        let changes = mutex.withLock { core.port.changes }
        return SimulatedBoard.felt(changes: changes, from: from, to: to, stepTicks: stepTicks,
                                   clockHz: spec.clockHz, model: model)
    }

    public static func felt(changes: [DriveChange], from: UInt64, to: UInt64, stepTicks: UInt64, clockHz: UInt32,
                            model: some MotorModel) -> [Double] {
        var model = model
        var out: [Double] = []
        var level: Int16 = 0
        var i = 0
        var t = from
        let dt = Double(stepTicks) / Double(clockHz)
        while t < to {
            while i < changes.count && changes[i].tick <= t {
                level = changes[i].level
                i += 1
            }
            model.advance(drive: Double(level) / 32767, seconds: dt)
            out.append(model.amplitude)
            t += stepTicks
        }
        return out
    }
}
