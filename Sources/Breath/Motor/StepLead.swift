// Leading steps by the motor's delay: for every jump in the intended intensity, how early to start driving
// toward the new level so the felt error before and after the jump is smallest.
// SPDX-License-Identifier: Apache-2.0

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

    /// Lead plans computed at full precision (levels to 1/1000) before coarser levels are used.
    static let preciseBudget = 256
    /// Levels are rounded to 1/20 once the budget is spent, so a pattern with a million different jumps
    /// plans at most 441 more of them.
    static let coarseSteps = 20.0

    /// The jumps of `envelope` (where the intensity changes abruptly, and tap edges), each with the lead that
    /// minimises the modeled squared error around it. `scale` maps intended intensity to the shaper's
    /// amplitude (the motor's ceiling, or 1).
    static func steps(of envelope: Envelope, tapSeconds: [Double], shaper: Shaper, frameRate: Int,
                      scale: Double = 1, felt: FeltRange? = nil) -> [LeadStep] {
        // One array from first to last, filled in place (a pattern of 10^6 taps has 2x10^6 jumps: a second
        // array of them would be 48 MB more).
        var steps = continuousJumps(envelope).map { LeadStep(time: $0.0, from: $0.1, to: $0.2, lead: 0) }
        steps.reserveCapacity(steps.count + 2 * envelope.taps.count)
        for (tap, seconds) in zip(envelope.taps, tapSeconds) where tap.intensity > minimumJump {
            steps.append(LeadStep(time: tap.time, from: 0, to: tap.intensity, lead: 0))
            steps.append(LeadStep(time: tap.time + seconds, from: tap.intensity, to: 0, lead: 0))
        }
        let map = { (v: Double) in (felt?.map(v) ?? v) * scale }
        for k in steps.indices {
            steps[k].from = map(steps[k].from)
            steps[k].to = map(steps[k].to)
        }
        steps.sort { $0.time < $1.time }
        // Breath jumps repeat every cycle: plan each distinct one once (levels rounded to 1/1000, or to
        // 1/20 after `preciseBudget` plans).
        var memo: [Int: Double] = [:]
        var coarse: [Int: Double] = [:]
        func key(_ from: Double, _ to: Double, _ steps: Double) -> Int {
            Int((from * steps).rounded()) * 10_000 + Int((to * steps).rounded())
        }
        for k in steps.indices {
            let (from, to) = (steps[k].from, steps[k].to)
            let fine = key(from, to, 1000)
            if let lead = memo[fine] {
                steps[k].lead = lead
            } else if memo.count < preciseBudget {
                let lead = bestLead(from: from, to: to, shaper: shaper, frameRate: frameRate)
                memo[fine] = lead
                steps[k].lead = lead
            } else {
                let rough = key(from, to, coarseSteps)
                let lead = coarse[rough] ?? bestLead(from: from, to: to, shaper: shaper, frameRate: frameRate)
                coarse[rough] = lead
                steps[k].lead = lead
            }
        }
        return steps
    }

    /// Jumps of the continuous intensity, found in one sweep over the envelope's cuts (event spans and
    /// control segments): at the start of every stretch with events (from 0), at every cut inside one where
    /// the value jumps, and at the end of the last stretch (to 0). A drop into a silence between two
    /// stretches is not led (the renderer has always left those to the motor's own decay).
    static func continuousJumps(_ envelope: Envelope) -> [(Double, Double, Double)] {
        let spans = envelope.events.spans
        let terms = envelope.events.terms
        let segments = envelope.control.segments
        var jumps: [(Double, Double, Double)] = []
        func control(_ k: Int, at t: Double) -> Double { k >= 0 ? segments[k].shape.value(at: t) : 1 }
        func value(_ span: Int, _ control: Double, at t: Double) -> Double {
            min(max(terms[Int(spans[span].term)].value(at: t) * control, 0), 1)
        }
        func add(_ t: Double, _ before: Double, _ after: Double) {
            if abs(after - before) > minimumJump { jumps.append((t, before, after)) }
        }
        var c = -1  // the last control segment starting at or before the sweep's time
        func advance(to t: Double) { while c + 1 < segments.count && segments[c + 1].start <= t { c += 1 } }
        var lastEnd = -1.0, lastValue = 0.0
        var k = 0
        while k < spans.count {
            let t = spans[k].start
            advance(to: t)
            add(t, 0, value(k, control(c, at: t), at: t))
            while true {
                let end = spans[k].end
                let nextControl = c + 1 < segments.count ? segments[c + 1].start : .infinity
                if nextControl < end {
                    // A curve point inside the span: the control may jump.
                    let b = nextControl
                    let before = value(k, control(c, at: b), at: b - 1e-9)
                    advance(to: b)
                    add(b, before, value(k, control(c, at: b), at: b))
                    continue
                }
                let before = value(k, control(c, at: end), at: end - 1e-9)
                if k + 1 < spans.count && spans[k + 1].start == end {
                    advance(to: end)
                    add(end, before, value(k + 1, control(c, at: end), at: end))
                    k += 1
                    continue
                }
                lastEnd = end
                lastValue = before
                k += 1
                break
            }
        }
        if lastEnd > 0 && lastValue > minimumJump { jumps.append((lastEnd, lastValue, 0)) }
        return jumps
    }

    /// Simulates the shaper from steady `from`, switching its target to `to` at each candidate lead,
    /// and returns the lead with the least squared error against the ideal step. A candidate is dropped as
    /// soon as its running error (a sum of squares, so it only grows) can no longer win.
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
            var k = -maxFrames
            while k < settle && error < best.error - 1e-12 {
                let targetNext = (k + 1) >= -leadFrames ? to : from
                let ideal = (k + 1) >= 0 ? to : from
                _ = s.drive(now: previous, next: targetNext) { $0 }
                previous = targetNext
                let e = s.felt - ideal
                error += e * e
                k += 1
            }
            if k == settle && error < best.error - 1e-12 { best = (leadFrames, error) }
        }
        return Double(best.lead) * dt
    }
}
