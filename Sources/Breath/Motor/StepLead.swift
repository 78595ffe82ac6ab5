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

    /// Jumps of the continuous intensity, found in one sweep over the envelope's cuts (event spans and
    /// control segments): at the start of every stretch with events (from 0), at every cut inside one where
    /// the value jumps, and at the end of every stretch (to 0). A drop into a silence is led like any other
    /// jump: left to the motor's own decay, the inhale's end into the 4-7-8's silent hold was half the felt
    /// error of a slow motor's breath.
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
                add(end, before, 0)
                k += 1
                break
            }
        }
        return jumps
    }

    /// Simulates the shaper from steady `from`, switching its target to `to` at each candidate lead,
    /// and returns the lead with the least squared error against the ideal step. A candidate is dropped as
    /// soon as its running error (a sum of squares, so it only grows) can no longer win.
    ///
    /// Every candidate holds the target at `from` until its lead begins, and that stretch is the same for
    /// all: it is simulated once, and each candidate picks it up (shaper and running error) at the frame
    /// its own target changes. The steps are the ones simulating each from the start would take, in the
    /// same order, so the lead is the same, for a fraction of the work (63 candidates at 250 Hz share up to
    /// 62 frames each): a live change's ramp plans five jumps before its first REPLACE can go.
    static func bestLead(from: Double, to: Double, shaper: Shaper, frameRate: Int) -> Double {
        let dt = 1 / Double(frameRate)
        let maxFrames = Int(maxLead * Double(frameRate))
        let settle = Int(0.4 * Double(frameRate))
        // held[j]: the shaper and running error after j frames with the target held at `from` (frames
        // -maxFrames ..< -maxFrames + j); `ideal` is `from` there too, before frame 0.
        var held: [(shaper: Shaper, error: Double)] = []
        held.reserveCapacity(maxFrames)
        var s = shaper
        s.settle(at: from)
        var error = 0.0
        held.append((s, error))
        for _ in 1..<max(1, maxFrames) {
            _ = s.drive(now: from, next: from) { $0 }
            let e = s.felt - from
            error += e * e
            held.append((s, error))
        }
        var best = (lead: 0, error: Double.infinity)
        for leadFrames in 0...maxFrames {
            // Frame k's target is `to` from k + 1 >= -leadFrames on: the frames before are the held ones.
            let shared = max(0, maxFrames - leadFrames - 1)
            var (s, error) = held[shared]
            var previous = from
            var k = -maxFrames + shared
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

/// The leads of jumps already planned, kept across renderers of one breath: a live breath (`LiveFrames`)
/// starts a new renderer at every change, and planning a jump's lead simulates the shaper up to 63 x 162
/// frames at 250 Hz (`StepLead.bestLead`), work a change would otherwise repeat. A lead is a
/// function of the jump's two levels and the motor model, so a kept one is exactly the one planning it
/// again gives: frames are the same with or without.
///
///     var first = FrameRenderer(pattern: a, frameRate: 250)
///     first.render(count: 250, into: &frames)                   // plans the leads of a's first second
///     let next = FrameRenderer(pattern: b, frameRate: 250, leadPlans: first.leadPlans)  // not again
///
/// Renderers of another motor model, frame rate or ceiling start it afresh.
public struct LeadPlans: Sendable {
    /// What a lead depends on besides the jump.
    struct Setup: Equatable {
        var profile: MotorProfile
        var frameRate: Int
        var compensate: Bool
        var allowReverse: Bool
        var ceiling: DriveCeiling?
        var kick: Double
        var startLevel: Double
    }

    /// A jump, by its levels' exact bits.
    struct Jump: Hashable {
        var from: UInt64
        var to: UInt64
    }

    private var setup: Setup?
    private var leads: [Jump: Double] = [:]
    /// At most this many kept (a pattern of many different jumps plans at most 697 per renderer).
    static let capacity = 4096

    public init() {}

    /// Forgets the kept leads unless they were planned for this shaper at this frame rate.
    mutating func use(for shaper: Shaper, frameRate: Int) {
        let s = Setup(profile: shaper.profile, frameRate: frameRate, compensate: shaper.compensate,
                      allowReverse: shaper.allowReverse, ceiling: shaper.limiter?.ceiling,
                      kick: shaper.kick, startLevel: shaper.startLevel)
        if s != setup {
            setup = s
            leads.removeAll()
        }
    }

    /// `StepLead.bestLead`, kept.
    mutating func bestLead(from: Double, to: Double, shaper: Shaper, frameRate: Int) -> Double {
        let jump = Jump(from: from.bitPattern, to: to.bitPattern)
        if let lead = leads[jump] { return lead }
        let lead = StepLead.bestLead(from: from, to: to, shaper: shaper, frameRate: frameRate)
        if leads.count >= LeadPlans.capacity { leads.removeAll() }
        leads[jump] = lead
        return lead
    }
}

/// The jumps of an envelope in time order, their leads planned when a renderer first reaches them: a
/// renderer started for a live change renders a second or two, so planning the leads of every jump of the
/// rest of the breath first would delay the change for jumps it may never reach. Which plan a jump shares (a
/// breath's jumps repeat every cycle) is settled at the start, in time order, so a lead is the same
/// whether it is planned at the start, when reached, or never reached at all.
struct LeadSchedule: Sendable {
    /// The jumps; a lead is NaN until planned.
    private(set) var steps: [LeadStep]
    /// Per jump, the plan it shares: levels rounded to 1/1000, or to 1/20 once `StepLead.preciseBudget`
    /// plans are spoken for. A plan is made from its first jump's exact levels.
    private let planOf: [Int32]
    /// Per plan, the jump whose exact levels it is planned from (`LeadPlans` keeps the lead).
    private let firstStep: [Int32]

    /// No jumps (a renderer without compensation).
    init() {
        steps = []
        planOf = []
        firstStep = []
    }

    init(_ envelope: Envelope, tapSeconds: [Double], scale: Double = 1, felt: FeltRange? = nil) {
        // One array from first to last, filled in place (a pattern of 10^6 taps has 2x10^6 jumps: a second
        // array of them would be 48 MB more).
        var steps = StepLead.continuousJumps(envelope).map { LeadStep(time: $0.0, from: $0.1, to: $0.2, lead: .nan) }
        steps.reserveCapacity(steps.count + 2 * envelope.taps.count)
        for (tap, seconds) in zip(envelope.taps, tapSeconds) where tap.intensity > StepLead.minimumJump {
            steps.append(LeadStep(time: tap.time, from: 0, to: tap.intensity, lead: .nan))
            // A tap's end is not led: in its 15-40 ms the motor is far below the tap's level, and a lead planned
            // from that level at rest would cut the pulse (an 80 ms ERM's tap fell from 0.31 to 0.18 felt).
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
        var fine: [Int: Int32] = [:]
        var coarse: [Int: Int32] = [:]
        var firstStep: [Int32] = []
        func key(_ from: Double, _ to: Double, _ steps: Double) -> Int {
            Int((from * steps).rounded()) * 10_000 + Int((to * steps).rounded())
        }
        var planOf = [Int32](repeating: 0, count: steps.count)
        for k in steps.indices {
            let (from, to) = (steps[k].from, steps[k].to)
            let f = key(from, to, 1000)
            if let plan = fine[f] {
                planOf[k] = plan
            } else if fine.count < StepLead.preciseBudget {
                fine[f] = Int32(firstStep.count)
                planOf[k] = Int32(firstStep.count)
                firstStep.append(Int32(k))
            } else {
                let rough = key(from, to, StepLead.coarseSteps)
                if let plan = coarse[rough] {
                    planOf[k] = plan
                } else {
                    coarse[rough] = Int32(firstStep.count)
                    planOf[k] = Int32(firstStep.count)
                    firstStep.append(Int32(k))
                }
            }
        }
        self.steps = steps
        self.planOf = planOf
        self.firstStep = firstStep
    }

    /// The lead of jump `k`, planned now if it is not yet.
    @inline(__always)
    mutating func lead(ofStep k: Int, shaper: Shaper, frameRate: Int, plans: inout LeadPlans) -> Double {
        let known = steps[k].lead
        if !known.isNaN { return known }
        return plan(k, shaper: shaper, frameRate: frameRate, plans: &plans)
    }

    private mutating func plan(_ k: Int, shaper: Shaper, frameRate: Int, plans: inout LeadPlans) -> Double {
        let first = steps[Int(firstStep[Int(planOf[k])])]
        let lead = plans.bestLead(from: first.from, to: first.to, shaper: shaper, frameRate: frameRate)
        steps[k].lead = lead
        return lead
    }

    /// Every jump, each lead planned (on a copy: the schedule itself plans as it is reached).
    func planned(shaper: Shaper, frameRate: Int, plans: LeadPlans) -> [LeadStep] {
        var copy = self
        var plans = plans
        for k in copy.steps.indices { _ = copy.lead(ofStep: k, shaper: shaper, frameRate: frameRate, plans: &plans) }
        return copy.steps
    }
}
