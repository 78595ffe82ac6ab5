// The board-clocked scheduler: plays each buffered frame at its tick, synthesises the LRA carrier,
// holds the drive ceiling (DriveLimit.swift), fires the failsafe, and stops.
// SPDX-License-Identifier: Apache-2.0

#if canImport(MotorWire)
import MotorWire
#endif

extension BoardCore {
    /// Runs everything due up to `now` (plus the output lead for frame and carrier outputs).
    public mutating func service(now: UInt64) {
        if let h = heldClock, now >= h.due { answerHeldClock(now: now) }
        serviceSampling(now: now)  // first: playback below returns early
        if (state == .armed || state == .playing), let c = config {
            let limit = UInt64(c.failsafeMs) * UInt64(info.clockHz) / 1000
            if now > lastValidRx && now - lastValidRx > limit {
                haltPlayback(now: now, then: .failsafe)
                return
            }
        }
        guard state == .armed || state == .playing, let tb = timebase else { return }
        outputs.settle(now: now)
        let horizon = now + outputLeadTicks
        while true {
            let frameDue = tb.due(nextPlay)
            let edge = carrier.map { $0.due(carrierIndex) }
            // The overdrive budget runs out before the next frame or carrier edge: drop to the ceiling then.
            if let limit = overdrive?.deadline, limit < frameDue, limit <= (edge ?? limit), limit <= horizon {
                emit(at: max(limit, now))
                continue
            }
            if let edge, edge < frameDue, edge <= horizon {
                carrierIndex &+= 1
                polarity = -polarity
                emit(at: max(edge, now))
                continue
            }
            guard frameDue <= horizon else { return }
            if stopAt == nextPlay {
                haltPlayback(now: max(now, frameDue), then: .configured)
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
            // Output never waits for the UART: while the outbox is nearly full (a host not reading, a slow
            // line), the report keeps growing and goes out, covering more frames, once there is room.
            if let every = config?.reportEvery, every > 0, tally.count >= every,
               outbox.count < Outbox.capacity - 2 || tally.count == UInt16.max, let r = tally.take() {
                outbox.push(.played(r))
            }
        }
    }

    /// The earliest tick at which `service` has work: a held CLOCK answer, the next sample (or sampling's
    /// silence stop), the failsafe deadline, the next
    /// frame (handed over `outputLeadTicks` early when it is buffered; at its tick when it is not, to declare
    /// the underrun), or a carrier edge before that frame. It mirrors `service`, so waking there always
    /// makes progress.
    @inline(__always)  // out of line, the main loop's call copies the whole core first (cycle bench)
    public func nextWake(now: UInt64) -> UInt64 {
        let clock = heldClock.map { max($0.due, now) } ?? UInt64.max
        return min(clock, playbackWake(now: now), samplingWake(now: now))
    }

    @inline(__always)
    func playbackWake(now: UInt64) -> UInt64 {
        guard state == .armed || state == .playing, let tb = timebase, let c = config else { return UInt64.max }
        var wake = lastValidRx + UInt64(c.failsafeMs) * UInt64(info.clockHz) / 1000 + 1
        let frameDue = tb.due(nextPlay)
        let buffered = ring.has(nextPlay) || stopAt == nextPlay
        wake = min(wake, buffered ? frameDue - min(outputLeadTicks, frameDue) : frameDue)
        if let edge = carrier?.due(carrierIndex), edge < frameDue {
            wake = min(wake, edge - min(outputLeadTicks, edge))
        }
        if let limit = overdrive?.deadline, limit < frameDue {
            wake = min(wake, limit - min(outputLeadTicks, limit))
        }
        return max(wake, now)
    }

    /// Hands the current level (envelope, with LRA polarity) to the port.
    mutating func emit(at tick: UInt64) {
        var level = envelope
        let reverseOK = info.capabilitySet.contains(.reverse)
            && (config?.flags ?? 0) & Configure.flagAllowReverse != 0
        if level < 0 && !reverseOK { level = 0 }
        if carrier != nil { level = level < 0 ? 0 : level * polarity }
        if overdrive != nil { level = overdrive!.apply(level, at: tick) }
        if level != output {
            output = level
            outputs.push(level, at: tick)
            port.schedule(level: level, at: tick)
        }
    }

    /// Sets up the LRA carrier: polarity flips every half period of the resonance frequency.
    mutating func startCarrier(at tick: UInt64) {
        guard info.motorKind == .lra, info.capabilitySet.contains(.lraCarrier) else {
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

    /// Motor off at `now`; drop buffered frames; the final PLAYED of what was output. `then` is where the
    /// board goes by itself (a deferred STOP reached: configured; the failsafe: failsafe, the configuration
    /// forgotten) and is announced with an unsolicited STATUS (ack_seq 0) whose tick is `now`, the tick the
    /// motor went off. Without `then`, a host message stopped it and its own reply says so.
    mutating func haltPlayback(now: UInt64, then next: BoardState? = nil) {
        port.off(at: now)
        if overdrive != nil { _ = overdrive!.apply(0, at: now) }
        output = 0
        outputs.cut(to: 0, at: now)
        envelope = 0
        if let r = tally.take() { outbox.push(.played(r)) }
        timebase = nil
        carrier = nil
        stopAt = nil
        ring.clearAll()
        nextExpected = 0
        nextPlay = 0
        if next == .failsafe {
            failsafeTrips &+= 1
            config = nil
            state = .failsafe
        } else if config != nil {
            state = .configured
        } else if state != .failsafe {
            state = .idle
        }
        if next != nil { outbox.push(.status(status(ackSeq: 0, now: now))) }
    }
}
