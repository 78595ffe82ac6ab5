// Leading steps by the motor's delay: for every jump in the intended intensity, how early to start driving
// toward the new level so the felt error before and after the jump is smallest.

/// A jump in the intended intensity at `time`, from `from` to `to`, to be driven toward from `time - lead` on.
public struct LeadStep: Sendable, Equatable {
    public var time: Double
    public var from: Double
    public var to: Double
    public var lead: Double
}

enum StepLead {
    /// Jumps larger than this (of full scale) are led.
    static let minimumJump = 0.05
    /// Longest lead considered.
    static let maxLead = 0.25

    /// The jumps of `envelope` (piece boundaries where the intensity changes abruptly, and tap edges),
    /// each with the lead that minimises the modeled squared error around it.
    static func steps(of envelope: Envelope, tapSeconds: [Double], shaper: Shaper, frameRate: Int) -> [LeadStep] {
        var jumps: [(Double, Double, Double)] = []
        var cursor = Envelope.Cursor(envelope)
        var previousEnd = -1.0
        var previousValue = 0.0
        for p in envelope.pieces {
            // Value just before this piece (0 if there is a gap) and at its start.
            let before = p.start == previousEnd ? previousValue : 0
            let at = cursor.intensity(at: p.start)
            if abs(at - before) > minimumJump { jumps.append((p.start, before, at)) }
            previousEnd = p.end
            previousValue = Envelope.valueAtEnd(p)
            _ = cursor.intensity(at: p.end - 1e-9)
        }
        if previousEnd > 0 && previousValue > minimumJump { jumps.append((previousEnd, previousValue, 0)) }
        for (tap, seconds) in zip(envelope.taps, tapSeconds) where tap.intensity > minimumJump {
            jumps.append((tap.time, 0, tap.intensity))
            jumps.append((tap.time + seconds, tap.intensity, 0))
        }
        jumps.sort { $0.0 < $1.0 }
        // Breath jumps repeat every cycle: plan each distinct one once (levels rounded to 1/1000).
        var memo: [Int: Double] = [:]
        return jumps.map { (t, from, to) in
            let key = Int((from * 1000).rounded()) * 10_000 + Int((to * 1000).rounded())
            let lead = memo[key] ?? bestLead(from: from, to: to, shaper: shaper, frameRate: frameRate)
            memo[key] = lead
            return LeadStep(time: t, from: from, to: to, lead: lead)
        }
    }

    /// Simulates the shaper from steady `from`, switching its target to `to` at each candidate lead,
    /// and returns the lead with the least squared error against the ideal step.
    static func bestLead(from: Double, to: Double, shaper: Shaper, frameRate: Int) -> Double {
        let dt = 1 / Double(frameRate)
        let maxFrames = Int(maxLead * Double(frameRate))
        let settle = Int(0.4 * Double(frameRate))
        var best = (lead: 0, error: Double.infinity)
        for leadFrames in 0...maxFrames {
            var s = shaper
            s.settle(at: from)
            var error = 0.0
            var previous = from
            for k in -maxFrames..<settle {
                let targetNext = (k + 1) >= -leadFrames ? to : from
                let ideal = (k + 1) >= 0 ? to : from
                _ = s.drive(now: previous, next: targetNext) { $0 }
                previous = targetNext
                let e = s.felt - ideal
                error += e * e
            }
            if error < best.error - 1e-12 { best = (leadFrames, error) }
        }
        return Double(best.lead) * dt
    }
}

extension Envelope {
    /// The intensity at the very end of a piece (its right limit).
    static func valueAtEnd(_ p: Piece) -> Double {
        var strongest = 0.0
        for term in p.terms { strongest = max(strongest, term.value(at: p.end - 1e-9)) }
        return min(max(strongest * p.curve.value(at: p.end), 0), 1)
    }
}
