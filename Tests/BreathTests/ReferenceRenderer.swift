// The renderer's per-frame loop as it was before the speed work (issue 16), frozen here as the oracle the
// fast loop must match bit for bit: it reads the same compiled tables (spans, segments, steps) the old way,
// one frame at a time, with its own copy of the cursors, the shaper, the motor step and the overdrive budget.
// SPDX-License-Identifier: Apache-2.0

@testable import Breath
import Foundation

struct ReferenceRenderer {
    /// A freshly made renderer: only its compiled tables and starting state are read.
    let source: FrameRenderer
    /// The source's jumps with every lead planned (read once: planning them all is not free).
    let steps: [LeadStep]
    var next = 0
    var eventIndex = 0, controlIndex = -1, pulseIndex = 0, stepIndex = 0
    var lastAim: Double?
    var floorActive: Bool
    var erm: ERMModel?
    var lra: LRAModel?
    var budget: Double
    var lockedOut = false

    init(_ fresh: FrameRenderer) {
        precondition(fresh.position == 0, "the reference starts from a renderer that has not rendered yet")
        source = fresh
        steps = fresh.steps
        floorActive = fresh.floorActive
        erm = fresh.shaper.erm
        lra = fresh.shaper.lra
        budget = fresh.shaper.limiter?.budget ?? 0
    }

    /// Every frame's raw duty value, in one go.
    mutating func renderAll() -> [UInt16] {
        var out: [UInt16] = []
        var now = intendedAtFrame(next)
        for i in next..<source.frameCount {
            let after = intendedAtFrame(i + 1)
            let aim = shapingTarget(atFrame: i + 1, intended: after)
            out.append(drive(now: floorActive ? 0 : (lastAim ?? now), next: aim))
            now = after
            lastAim = aim
        }
        next = source.frameCount
        return out
    }

    // MARK: intended intensity (Envelope.Cursor, UpperEnvelope.Cursor, ControlTrack.Cursor as they were)

    /// Breath time at the start of frame `i`, from whole frames (2026-11-26: it was frame time minus the
    /// warm-up's seconds, which rounds below a frame boundary and moved a lead by a frame after a warm-up).
    func breathTime(ofFrame i: Int) -> Double { Double(i - source.warmupFrames) / Double(source.frameRate) }

    mutating func intendedAtFrame(_ i: Int) -> Double {
        let t = breathTime(ofFrame: i)
        return t < 0 ? 0 : intended(at: t)
    }

    mutating func intended(at t: Double) -> Double {
        var v = 0.0
        if let strongest = Self.upper(source.envelope.events, at: t, index: &eventIndex) {
            v = min(max(strongest * controlIntensity(at: t), 0), 1)
        }
        if let tap = Self.upper(source.pulses, at: t, index: &pulseIndex) { v = max(v, tap) }
        if let range = source.feltRange { v = range.map(v) }
        return v * source.fullScale
    }

    static func upper(_ envelope: UpperEnvelope, at t: Double, index: inout Int) -> Double? {
        let spans = envelope.spans
        while index < spans.count && spans[index].end <= t { index += 1 }
        guard index < spans.count, spans[index].start <= t else { return nil }
        let term = envelope.terms[Int(spans[index].term)]
        return term.constant ? term.event.intensity : term.event.intensity * term.event.envelope(at: t)
    }

    mutating func controlIntensity(at t: Double) -> Double {
        let segments = source.envelope.control.segments
        while controlIndex + 1 < segments.count && segments[controlIndex + 1].start <= t { controlIndex += 1 }
        guard controlIndex >= 0 else { return 1 }
        let s = segments[controlIndex].shape
        guard s.t1 > s.t0 else { return min(max(s.v1, 0), 1) }
        let v = s.v0 + (s.v1 - s.v0) * s.easing.apply((t - s.t0) / (s.t1 - s.t0))
        return min(max(v, 0), 1)
    }

    // MARK: shaping target (warm-up floor, step leads)

    mutating func shapingTarget(atFrame i: Int, intended: Double) -> Double {
        if floorActive {
            if intended < source.warmupFloor { return source.warmupFloor }
            floorActive = false
        }
        let t = breathTime(ofFrame: i)
        guard t >= 0 else { return intended }
        while stepIndex < steps.count && steps[stepIndex].time <= t { stepIndex += 1 }
        if stepIndex < steps.count, t >= steps[stepIndex].time - steps[stepIndex].lead { return steps[stepIndex].to }
        return intended
    }

    // MARK: the shaper (Shaper.drive, ermDrive, ERMModel.advance, OverdriveBudget.limit as they were)

    mutating func drive(now: Double, next: Double) -> UInt16 {
        let shaper = source.shaper
        var d: Double
        if !shaper.compensate {
            d = now
        } else if let m = erm {
            d = ermDrive(m, target: next, rising: next > now)
        } else {
            let m = lra!
            let target = (next - m.amplitude * shaper.eRise) / (1 - shaper.eRise)
            d = min(max(target / m.resonanceGain, 0), 1)
        }
        if shaper.limiter != nil { d = limit(d) }
        let (raw, q) = quantize(d)
        if erm != nil {
            advance(&erm!, drive: q)
        } else {
            let target = min(abs(q), 1) * lra!.resonanceGain
            lra!.amplitude = target + (lra!.amplitude - target) * shaper.eRise
        }
        return raw
    }

    func quantize(_ d: Double) -> (UInt16, Double) {
        switch source.resolution {
        case .u8:
            let q = (min(max(d, 0), 1) * 255).rounded()
            return (UInt16(q), q / 255)
        case .u16:
            let q = (min(max(d, 0), 1) * 65535).rounded()
            return (UInt16(q), q / 65535)
        case .i16:
            let q = (min(max(d, -1), 1) * 32767).rounded()
            return (UInt16(bitPattern: Int16(q)), q / 32767)
        }
    }

    func ermDrive(_ m: ERMModel, target y: Double, rising: Bool) -> Double {
        let s = source.shaper
        let a = m.amplitude
        if y > a {
            var d = (y - a * s.eRise) / (1 - s.eRise)
            if !m.spinning && !rising && y < 2 * m.stopThreshold { return 0 }
            if !m.spinning && d < s.kick * m.startThreshold {
                d = y < m.stopThreshold * s.startLevel ? 0 : max(d, s.kick * m.startThreshold)
            }
            return min(d, 1)
        }
        if y < a {
            let d = (y - a * s.eFall) / (1 - s.eFall)
            if d >= 0 { return d }
            guard s.allowReverse, a > 1e-4 else { return 0 }
            // The brake b with a·eFall − b·(fallTau/brakeTau)(1 − eFall) = y: the coast's drive d, rescaled.
            return -min(-d * m.brakeTau / m.fallTau, 1)
        }
        return m.spinning || y >= m.startThreshold ? y : 0
    }

    func advance(_ m: inout ERMModel, drive: Double) {
        let s = source.shaper
        if drive < 0 {
            // da/dt = −a / fallTau − |d| / brakeTau, solved over the frame; the rotor stops at 0.
            let k = min(-drive, 1) * m.fallTau / m.brakeTau
            m.amplitude = max(0, (m.amplitude + k) * s.eFall - k)
            return
        }
        let target = (!m.spinning && drive < m.startThreshold) ? 0 : min(drive, 1)
        let e = target > m.amplitude ? s.eRise : s.eFall
        m.amplitude = target + (m.amplitude - target) * e
    }

    mutating func limit(_ d: Double) -> Double {
        let budgetRule = source.shaper.limiter!
        let ceiling = budgetRule.ceiling, dt = budgetRule.dt
        var out = d
        if abs(d) > ceiling.level {
            if !lockedOut && budget >= dt + budgetRule.margin {
                budget -= dt
                return d
            }
            lockedOut = true
            out = d < 0 ? -ceiling.level : ceiling.level
        }
        let full = ceiling.overdriveSeconds
        budget = ceiling.recoverySeconds > 0 ? min(full, budget + dt * full / ceiling.recoverySeconds) : full
        if budget >= full { lockedOut = false }
        return out
    }
}
