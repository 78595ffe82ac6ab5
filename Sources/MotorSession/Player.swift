// Streams frames to a prepared board: pre-fill, START on the board clock, keep the buffer topped up,
// resend what was lost, check every PLAYED report, STOP at the end and confirm the motor is off.

import MotorWire
import SerialLink

/// A snapshot for the live view, about 10 times a second.
public struct LiveStatus: Sendable {
    /// Seconds since the first frame's intended start (negative before it).
    public var elapsed: Double
    public var framesPlayed: Int
    public var framesTotal: Int
    public var board: Status?
    public var retransmits: Int
}

public final class Player {
    let channel: BoardChannel
    let prepared: Prepared
    let options: SessionOptions
    public private(set) var report = PlayReport()
    /// The START sent (its timebase says when each frame was due on the board clock).
    public private(set) var start: Start?
    /// Called with every PLAYED report, for callers that check the board's evidence themselves.
    public var onPlayed: ((Played) -> Void)?
    private var rtts: [Double] = []
    private var lateness: [Double] = []

    public init(channel: BoardChannel, prepared: Prepared, options: SessionOptions) {
        self.channel = channel
        self.prepared = prepared
        self.options = options
        report.prepareMs = Double(prepared.prepareNs) / 1e6
        rtts = prepared.clock.rtts.map { Double($0) / 1000 }
    }

    /// Plays `source` to the end (or until `shouldStop` returns true). The motor is off when it returns,
    /// also when it throws, as far as the link still works.
    public func play(_ source: FrameSource, onStatus: (LiveStatus) -> Void = { _ in },
                     shouldStop: () -> Bool = { false }) throws(SessionError) -> PlayReport {
        do {
            try stream(source, onStatus: onStatus, shouldStop: shouldStop)
        } catch {
            report.motorOffAtExit = stopMotor()
            throw error
        }
        report.motorOffAtExit = stopMotor()
        report.rttUs = Percentiles(rtts)
        report.scheduleErrorUs = Percentiles(lateness)
        report.hostRxErrors = Int(channel.rxErrors.total)
        return report
    }

    private func stream(_ source: FrameSource, onStatus: (LiveStatus) -> Void,
                        shouldStop: () -> Bool) throws(SessionError) {
        let info = prepared.info
        let rate = options.frameRate
        let total = source.frameCount
        report.framesTotal = total
        let format = prepared.config.dutyFormat
        let targetFrames = max(1, min(Int(info.bufferCapacity) - 8, rate * options.targetBufferMs / 1000))
        let periodQ32 = Start.periodQ32(clockHz: info.clockHz, frameRate: rate)

        var next = 0            // next frame index to send
        var highestSent = 0     // one past the highest index ever sent
        var acked = 0           // board's next expected index
        var playedThrough = 0   // one past the last index in a PLAYED report
        var lastSendNs: UInt64 = 0
        var lastProgressNs = MonotonicClock.nowNs()
        var stopSent = false
        var nextViewNs: UInt64 = 0

        func sendFrames(upTo limit: Int) throws(SessionError) {
            while next < min(limit, total) {
                let n = min(format.maxPerMessage, min(limit, total) - next)
                var block = FramesBlock(firstIndex: UInt32(truncatingIfNeeded: next), format: format)
                for v in source.frames(from: next, count: n) { block.values.append(v) }
                try channel.send(.frames(block))
                report.framesSent += n
                if next < highestSent { report.retransmits += min(n, highestSent - next) }
                next += n
                highestSent = max(highestSent, next)
                lastSendNs = MonotonicClock.nowNs()
            }
        }

        // Pre-fill, then START: frame 0 plays at startNs on the host clock, mapped to a board tick.
        try sendFrames(upTo: targetFrames)
        let startNs = MonotonicClock.nowNs() + UInt64(options.startLeadMs) * 1_000_000
        let start = Start(anchorIndex: 0, anchorTick: prepared.clock.tick(atHostNs: startNs), periodQ32: periodQ32)
        let timebase = start.timebase
        self.start = start
        try channel.send(.start(start))
        let endNs = startNs + UInt64(total) * 1_000_000_000 / UInt64(rate)

        while playedThrough < total {
            let now = MonotonicClock.nowNs()
            if shouldStop() {
                report.interrupted = true
                return
            }
            if now > endNs + 3_000_000_000 {
                throw .timeout("the board to report the last frames played")
            }
            // Frame the board is playing now, by our clock estimate.
            let playing = now < startNs ? 0 : Int((now - startNs) * UInt64(rate) / 1_000_000_000)
            try sendFrames(upTo: playing + targetFrames)
            if next >= total && !stopSent {
                try channel.send(.stop(atIndex: UInt32(truncatingIfNeeded: total)))
                stopSent = true
                lastSendNs = now
            }
            if acked < next && elapsed(now, since: lastProgressNs) > UInt64(options.retransmitTimeoutMs) * 1_000_000 {
                next = acked  // go back N: nothing acknowledged lately, resend from the board's point
                lastProgressNs = now
            }
            if elapsed(now, since: lastSendNs) > UInt64(options.heartbeatMs) * 1_000_000 {
                try channel.send(.heartbeat)
                lastSendNs = now
            }
            for m in try channel.receive(timeoutMs: 5) {
                switch m {
                case .status(let s):
                    report.underruns = Int(s.underruns)
                    report.lateArrivals = Int(s.lateFrames)
                    report.boardCRCErrors = Int(s.rxCRCErrors)
                    if s.state == .failsafe { throw .incompatible("the board's failsafe fired (no traffic for \(options.failsafeMs) ms)") }
                    if s.state != .idle {
                        let expected = Int(s.nextExpected)
                        if expected > acked {
                            acked = expected
                            lastProgressNs = now
                        }
                        if expected > next { next = expected }  // the board moved past these (underrun)
                    }
                    lastBoard = s
                case .nak(let n):
                    report.naks += 1
                    switch n.code {
                    case .gap, .bufferFull:
                        next = Int(n.detail)
                        lastProgressNs = now
                    default:
                        throw .refused(n)
                    }
                case .played(let p):
                    onPlayed?(p)
                    let first = Int(p.firstIndex)
                    if first != playedThrough { report.outOfOrder += 1 }
                    if first == 0 {
                        report.startErrorUs = ticksToUs(Int64(p.firstTick) - Int64(timebase.due(0)))
                    }
                    playedThrough = first + Int(p.count)
                    report.framesPlayed += Int(p.count)
                    report.playedLate += Int(p.lateCount)
                    lateness.append(ticksToUs(Int64(p.maxLateTicks)))
                    if p.dutyCRC != dutyCRC(source.frames(from: first, count: Int(p.count))) {
                        report.dutyMismatches += 1
                    }
                case .info:
                    throw .incompatible("the board restarted during playback")
                case .clock:
                    break
                }
            }
            if now >= nextViewNs {
                nextViewNs = now + 100_000_000
                onStatus(LiveStatus(elapsed: (Double(now) - Double(startNs)) / 1e9, framesPlayed: playedThrough,
                                    framesTotal: total, board: lastBoard, retransmits: report.retransmits))
            }
        }
    }

    private var lastBoard: Status?

    func ticksToUs(_ ticks: Int64) -> Double { Double(ticks) * 1e6 / Double(prepared.info.clockHz) }

    /// Sends STOP now and waits briefly for a STATUS showing the output at 0.
    public func stopMotor() -> Bool {
        guard let seq = try? channel.send(.stop(atIndex: HostMessage.stopNow)) else { return false }
        let off = try? channel.waitFor("STOP reply", timeoutMs: options.replyTimeoutMs) { m throws(SessionError) -> Bool? in
            if case .status(let s) = m, s.ackSeq == seq { return s.output == 0 && s.state != .playing && s.state != .armed }
            return nil
        }
        return off ?? false
    }
}

/// Nanoseconds from `earlier` to `now`, 0 if `earlier` is later (stamped after `now` was read).
@inline(__always)
func elapsed(_ now: UInt64, since earlier: UInt64) -> UInt64 { now > earlier ? now - earlier : 0 }

/// CRC-16/CCITT-FALSE over raw duty values, each as 2 little-endian bytes (as in PLAYED).
public func dutyCRC(_ values: [UInt16]) -> UInt16 {
    var crc = CRC16()
    for v in values {
        crc.update(UInt8(truncatingIfNeeded: v))
        crc.update(UInt8(truncatingIfNeeded: v >> 8))
    }
    return crc.value
}
