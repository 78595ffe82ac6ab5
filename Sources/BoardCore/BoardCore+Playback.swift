// The board-clocked scheduler: plays each buffered frame at its tick, synthesises the LRA carrier,

#if canImport(MotorWire)
import MotorWire
#endif
// fires the failsafe, and stops.

extension BoardCore {
    /// Runs everything due up to `now` (plus the output lead for frame and carrier outputs).
    public mutating func service(now: UInt64) {
        if (state == .armed || state == .playing), let c = config {
            let limit = UInt64(c.failsafeMs) * UInt64(info.clockHz) / 1000
            if now > lastValidRx && now - lastValidRx > limit {
                failsafeTrips &+= 1
                haltPlayback(now: now)
                state = .failsafe
                config = nil
                return
            }
        }
        guard state == .armed || state == .playing, let tb = timebase else { return }
        let horizon = now + outputLeadTicks
        while true {
            // Leave room for replies: the caller drains the outbox and services again.
            if outbox.count >= Outbox.capacity - 2 { return }
            let frameDue = tb.due(nextPlay)
            let edge = carrier.map { $0.due(carrierIndex) }
            if let edge, edge < frameDue, edge <= horizon {
                carrierIndex &+= 1
                polarity = -polarity
                emit(at: max(edge, now))
                continue
            }
            guard frameDue <= horizon else { return }
            if stopAt == nextPlay {
                haltPlayback(now: max(now, frameDue))
                return
            }
            let have = ring.has(nextPlay)
            if !have && frameDue > now { return }  // may still arrive in time
            let raw: UInt16 = have ? ring[nextPlay] : 0
            if have { ring.clear(nextPlay) } else { underruns &+= 1 }
            let at = max(frameDue, now)
            state = .playing
            envelope = config.map { $0.dutyFormat.level(raw) } ?? 0
            emit(at: at)
            tally.add(index: nextPlay, raw: raw, dueTick: frameDue, outputTick: at)
            port.played(index: nextPlay, due: frameDue, at: at, raw: raw)
            nextPlay &+= 1
            advanceExpected()
            if let every = config?.reportEvery, every > 0, tally.count >= every, let r = tally.take() {
                outbox.push(.played(r))
            }
        }
    }

    /// The earliest tick at which `service` has work: the failsafe deadline, the next frame (handed over
    /// `outputLeadTicks` early when it is buffered; at its tick when it is not, to declare the underrun),
    /// or a carrier edge before that frame. It mirrors `service`, so waking there always makes progress.
    public func nextWake(now: UInt64) -> UInt64 {
        guard state == .armed || state == .playing, let tb = timebase, let c = config else { return UInt64.max }
        var wake = lastValidRx + UInt64(c.failsafeMs) * UInt64(info.clockHz) / 1000 + 1
        let frameDue = tb.due(nextPlay)
        let buffered = ring.has(nextPlay) || stopAt == nextPlay
        wake = min(wake, buffered ? frameDue - min(outputLeadTicks, frameDue) : frameDue)
        if let edge = carrier?.due(carrierIndex), edge < frameDue {
            wake = min(wake, edge - min(outputLeadTicks, edge))
        }
        return max(wake, now)
    }

    /// Hands the current level (envelope, with LRA polarity) to the port.
    mutating func emit(at tick: UInt64) {
        var level = envelope
        let reverseOK = info.capabilities & Info.capReverse != 0
            && (config?.flags ?? 0) & Configure.flagAllowReverse != 0
        if level < 0 && !reverseOK { level = 0 }
        if carrier != nil { level = level < 0 ? 0 : level * polarity }
        if level != output {
            output = level
            port.schedule(level: level, at: tick)
        }
    }

    /// Sets up the LRA carrier: polarity flips every half period of the resonance frequency.
    mutating func startCarrier(at tick: UInt64) {
        guard info.motorKind == .lra, info.capabilities & Info.capLRACarrier != 0 else {
            carrier = nil
            return
        }
        var deciHz = UInt64(config?.lraResonanceDeciHz ?? 0)
        if deciHz == 0 { deciHz = UInt64(info.lraResonanceDeciHz) }
        guard deciHz > 0 else { return }
        // half period in ticks, 32.32: clockHz * 10 / (2 * deciHz)
        let halfQ32 = (UInt64(info.clockHz) * 10) << 32 / (2 * deciHz)
        carrier = Timebase(anchorIndex: 0, anchorTick: tick, periodQ32: halfQ32)
        carrierIndex = 1
        polarity = 1
    }

    /// Motor off now; drop buffered frames; back to `configured` (or `idle` if never configured).
    mutating func haltPlayback(now: UInt64) {
        port.off(at: now)
        output = 0
        envelope = 0
        if let r = tally.take() { outbox.push(.played(r)) }
        let wasPlaying = state == .armed || state == .playing
        timebase = nil
        carrier = nil
        stopAt = nil
        ring.clearAll()
        nextExpected = 0
        nextPlay = 0
        if config != nil { state = .configured } else if state != .failsafe { state = .idle }
        if wasPlaying { outbox.push(.status(status(ackSeq: 0, now: now))) }
    }
}
