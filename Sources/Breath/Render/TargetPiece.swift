// The renderer's targets between two breakpoints: where no cursor moves (continuous-event spans, intensity
// control segments, tap pulses, step leads), the intended intensity is one formula of the breath time,
// read from a piece found once instead of from every cursor at every frame.
// SPDX-License-Identifier: Apache-2.0

/// What is in force from one breakpoint until `until`. Plain 8-byte fields only (indices, -1 for none, and
/// values), so the piece lives in registers across the frame loop.
/// `FrameRenderer.intended(in:at:)` gives `intended(at:)` for any time in the piece, the same arithmetic.
struct TargetPiece {
    /// Breath time the piece ends (exclusive): the next time any cursor's answer changes.
    var until = -Double.infinity
    /// The strongest continuous event's term when it ramps (its value depends on the time), else -1 and
    /// `eventValue` is its value; `hasEvent` 0: no event, the continuous intensity is 0.
    var hasEvent = 0, eventRamp = -1, eventValue = 0.0
    /// The intensity control's segment (-1: before any curve, neutral 1).
    var control = -1
    /// A tap's pulse term when it ramps, else -1 and `pulseValue` is its value; `hasPulse` 0: none.
    var hasPulse = 0, pulseRamp = -1, pulseValue = 0.0
    /// While inside a coming step's lead (`inLead` 1), the shaper aims for the step's level instead.
    var inLead = 0, lead = 0.0
    /// The intended intensity when nothing above depends on the time (`isConstant` 1): computed once.
    var isConstant = 0, constant = 0.0
}

extension FrameRenderer {
    /// The piece in force at breath time `t` (>= 0), moving the cursors to `t` as reading them there does.
    mutating func piece(at t: Double) -> TargetPiece {
        var piece = TargetPiece()
        let events = cursor.events.seek(t, in: envelope.events)
        let control = cursor.control.seek(t, in: envelope.control)
        let pulse = pulseCursor.seek(t, in: pulses)
        if let k = events.term {
            piece.hasEvent = 1
            if envelope.events.terms[k].constant { piece.eventValue = envelope.events.terms[k].value(at: t) } else { piece.eventRamp = k }
        }
        if let k = control.segment { piece.control = k }
        if let k = pulse.term {
            piece.hasPulse = 1
            if pulses.terms[k].constant { piece.pulseValue = pulses.terms[k].value(at: t) } else { piece.pulseRamp = k }
        }
        piece.until = min(events.until, control.until, pulse.until)
        // Step leads: inside a coming jump's lead the shaper aims for the jump's new level.
        while stepIndex < schedule.steps.count && schedule.steps[stepIndex].time <= t { stepIndex += 1 }
        if stepIndex < schedule.steps.count {
            let lead = schedule.lead(ofStep: stepIndex, shaper: leadShaper, frameRate: frameRate, plans: &leadPlans)
            let step = schedule.steps[stepIndex]
            let leadStart = step.time - lead
            if t >= leadStart {
                piece.inLead = 1
                piece.lead = step.to
                piece.until = min(piece.until, step.time)
            } else {
                piece.until = min(piece.until, leadStart, step.time)
            }
        }
        let controlRamps = piece.control >= 0 && envelope.control.segments[piece.control].shape.t1 > envelope.control.segments[piece.control].shape.t0
        if piece.eventRamp < 0 && piece.pulseRamp < 0 && !controlRamps {
            piece.constant = intended(in: piece, at: t)
            piece.isConstant = 1
        }
        return piece
    }

    /// `intended(at: t)` for a `t` inside `piece`.
    @inline(always)
    func intended(in piece: TargetPiece, at t: Double) -> Double {
        if piece.isConstant != 0 { return piece.constant }
        var v = 0.0
        if piece.hasEvent != 0 {
            let strongest = piece.eventRamp < 0 ? piece.eventValue : envelope.events.terms[piece.eventRamp].value(at: t)
            let control = piece.control < 0 ? 1 : envelope.control.segments[piece.control].shape.value(at: t)
            v = min(max(strongest * control, 0), 1)
        }
        if piece.hasPulse != 0 { v = max(v, piece.pulseRamp < 0 ? piece.pulseValue : pulses.terms[piece.pulseRamp].value(at: t)) }
        if let feltRange { v = feltRange.map(v) }
        return v * fullScale
    }
}
