// Duty frames of a breath that can be changed while it plays: frames are rendered ahead from a LivePlan;
// an edit at frame k drops what was rendered from k on and picks the rendering up there, from a renderer
// that starts a second earlier and follows the frames already rendered (and sent) for that second, so its
// motor model has the state the played frames gave the motor at k (the splice is seamless).
// SPDX-License-Identifier: Apache-2.0

import Breath

/// What can change while a breath plays.
public enum BreathChange: Sendable, Equatable {
    case strength(Double)
    case sharpness(Double)
    case pace(breathsPerMinute: Double)
    case pause
    case resume
    /// To the start of a phase (index into the pattern's phases) of a cycle.
    case seek(cycle: Int, phase: Int)
    case finishAfterThisBreath
    /// A new breath pattern from the next cycle (`now`: fading out what plays, the cycle playing starts
    /// again in it).
    case pattern(BreathPattern, now: Bool)
}

/// The frames of a breath that may change while it plays: rendered ahead from a `LivePlan`; `apply`
/// re-renders from a frame on, from a renderer started earlier so the motor model's state at the splice
/// is the same. `BreathSession.play` makes one; a `Player` streams it.
public final class LiveFrames: FrameSource {
    public private(set) var plan: LivePlan
    public let frameRate: Int
    let resolution: DutyResolution
    let motor: MotorProfile
    let compensate: Bool
    /// The board's drive ceiling (LIMITS), kept by every renderer; a restarted one replays
    /// `contextSeconds` first, long enough to spend or earn the overdrive budget as the breath did.
    let ceiling: DriveCeiling?
    /// A person's felt range (a calibration profile), kept by every renderer.
    let feltRange: FeltRange?
    /// Frames of warm-up before breath time 0 (frame `warmupFrames` is breath time 0).
    public let warmupFrames: Int
    /// The warm-up as the first renderer had it (seconds, and the uncalibrated margin): a restart within a
    /// second of the breath's start renders from frame 0 again, warm-up included.
    private let warmup: Double
    private let warmupMargin: Double
    private var renderer: FrameRenderer
    /// Session frame index of the renderer's frame 0.
    private var rendererBase = 0
    /// A change takes effect at this frame, past what is rendered: the renderer restarts when it gets there.
    private var deferredRestart: Int?
    private var cache: [UInt16] = []
    private var cacheBase = 0
    private let keep: Int
    /// Seconds of breath a new renderer follows (the frames rendered before) up to the frame where a change
    /// takes effect: its motor model and overdrive budget come from them.
    static let contextSeconds = 1.0

    public init(plan: LivePlan, frameRate: Int, resolution: DutyResolution, motor: MotorProfile = .referenceERM,
                compensate: Bool = true, warmup: Double = 0, ceiling: DriveCeiling? = nil, feltRange: FeltRange? = nil,
                warmupMargin: Double = 1.5, keep: Int = 16_384) {
        self.plan = plan
        self.ceiling = ceiling
        self.feltRange = feltRange
        self.frameRate = frameRate
        self.resolution = resolution
        self.motor = motor
        self.compensate = compensate
        self.keep = keep
        self.warmup = warmup
        self.warmupMargin = warmupMargin
        renderer = FrameRenderer(pattern: plan.haptics(), duration: plan.duration.isFinite ? plan.duration : 0,
                                 frameRate: frameRate, resolution: resolution, motor: motor, compensate: compensate,
                                 warmup: warmup, ceiling: ceiling, feltRange: feltRange, warmupMargin: warmupMargin)
        warmupFrames = renderer.warmupFrames
    }

    /// Frames until the breath ends; while paused, an hour past the pause (it grows as time goes on).
    public var frameCount: Int {
        if let paused = plan.pausedAt {
            let (end, overflow) = frame(atBreathTime: paused).addingReportingOverflow(3600 * frameRate)
            return overflow ? .max : end
        }
        return frame(atBreathTime: plan.duration)
    }

    /// Session frame index at breath time `t` (rounded up: the first frame at or after it). A time past any
    /// frame index (infinite) gives the last one, Int.max; NaN gives the warm-up's end (never a trap).
    public func frame(atBreathTime t: Double) -> Int {
        let frames = Int(saturating: (t * Double(frameRate) - 1e-9).rounded(.up))
        return frames > Int.max - warmupFrames ? .max : warmupFrames + frames
    }

    public func breathTime(ofFrame i: Int) -> Double { Double(i - warmupFrames) / Double(frameRate) }

    public func frames(from start: Int, count: Int) -> [UInt16] {
        if plan.looping { extendLoop(through: start + count) }
        let end = min(start + count, frameCount)
        guard end > start else { return [] }
        while cacheBase + cache.count < end {
            if let d = deferredRestart, cacheBase + cache.count >= d { restart(at: d) }
            let before = cache.count
            let limit = deferredRestart.map { $0 - cacheBase - cache.count } ?? Int.max
            renderer.render(count: min(limit, max(256, end - cacheBase - cache.count)), into: &cache)
            if cache.count == before {  // the renderer has ended (a pause): silence from here
                cache += [UInt16](repeating: silence, count: min(end, deferredRestart ?? end) - cacheBase - cache.count)
            }
        }
        if cache.count > keep * 2 {
            let drop = cache.count - keep
            cache.removeFirst(drop)
            cacheBase += drop
        }
        return (start..<end).map { $0 >= cacheBase ? cache[$0 - cacheBase] : silence }
    }

    /// The raw value of no drive.
    private var silence: UInt16 { 0 }

    /// Makes `change` from frame `k` on (the first frame that can still change on the board); returns the
    /// first frame whose duty may differ (k, or a later phase boundary for a change of pace).
    @discardableResult
    public func apply(_ change: BreathChange, fromFrame k: Int) -> Int {
        // Frames before k stay as they were: render them with the plan as it was, if not yet done.
        if k > 0 && cacheBase + cache.count < k { _ = frames(from: k - 1, count: 1) }
        let t = max(0, breathTime(ofFrame: k))
        var effective = k
        switch change {
        // A strength or sharpness the breath already has changes no frame: nothing is re-rendered.
        case .strength(let s): if !plan.setStrength(s, at: t) { return k }
        case .sharpness(let s): if !plan.setSharpness(s, at: t) { return k }
        case .pace(let bpm):
            // Paused, no phase boundary lies ahead (the plan's end is infinitely far): from k.
            let boundary = plan.setPace(breathsPerMinute: bpm, at: t)
            effective = boundary.isFinite ? frame(atBreathTime: boundary) : k
        case .pause: plan.pause(at: t)
        case .resume: plan.resume(at: t)
        case .seek(let cycle, let phase): plan.seek(cycle: cycle, phase: phase, at: t)
        case .finishAfterThisBreath: plan.finishAfterThisBreath(at: t)
        case .pattern(let pattern, let now):
            // At the next cycle: the cycle playing ends as planned, the new one starts on its boundary.
            if let begins = plan.setPattern(pattern, at: t, now: now), !now, plan.pausedAt == nil { effective = frame(atBreathTime: begins) }
        }
        // Frames before the first one that may differ stay as rendered (and as sent): a pace change keeps
        // the phase playing as it was, to the frame.
        restart(at: effective)
        return effective
    }

    /// Why `change` cannot be made from frame `k` (nil: it can): a pattern change at the next cycle when the
    /// breath ends with this one, or one that would make the session longer than 24 hours.
    public func refusal(_ change: BreathChange, fromFrame k: Int) -> String? {
        guard case .pattern(let pattern, let now) = change else { return nil }
        let t = max(0, breathTime(ofFrame: k))
        let from = now ? (plan.pausedAt == nil ? plan.phase(at: t)?.cycle : nil) : plan.nextCycleStart(at: t)?.cycle
        if !now && from == nil {
            return "the breath ends with this cycle: there is no next cycle to change (\"at\":\"now\" changes this one)"
        }
        guard !plan.looping, let from else { return nil }
        let hours = (t + Double(plan.cycles - from + 1) * pattern.cycleSeconds) / 3600
        if hours * 3600 > HapticPattern.longestSeconds + 1 {
            return "\(plan.cycles - from + 1) cycles of \(pattern.name) would make the session last \(String(format: "%.1f", hours)) hours; the longest session is 24 hours"
        }
        return nil
    }

    /// Re-renders from frame `k` on: a renderer started `contextSeconds` earlier on the changed plan,
    /// fast-forwarded to k with its motor model following the frames rendered before k (rendered again
    /// when they are no longer kept). A k past what is rendered (a pace or pattern change at a later boundary) waits:
    /// the frames up to it are as they were, the renderer playing renders them, and restarts there.
    /// (Internal, not private: NoopChangeTests restarts on an unchanged plan to hold the splice to a fresh render.)
    func restart(at k: Int) {
        if k > cacheBase + cache.count {
            deferredRestart = min(deferredRestart ?? k, k)
            return
        }
        deferredRestart = nil
        // Within a second of the breath's start (or in the warm-up) the new renderer starts where the first
        // did, at session frame 0 with the same warm-up: started at breath time 0 without it, its motor model
        // would begin cold, and a change in the warm-up would take frames from the wrong index (an unchanged
        // strength would change frames).
        let fromStart = breathTime(ofFrame: k) - LiveFrames.contextSeconds <= 0
        let origin = fromStart ? 0 : frame(atBreathTime: breathTime(ofFrame: k) - LiveFrames.contextSeconds)
        let originTime = fromStart ? 0 : breathTime(ofFrame: origin)
        let remaining = plan.duration.isFinite ? plan.duration - originTime : plan.pausedAt.map { $0 - originTime + 1 } ?? 0
        renderer = FrameRenderer(pattern: plan.haptics(from: originTime), duration: max(0, remaining), frameRate: frameRate,
                                 resolution: resolution, motor: motor, compensate: compensate,
                                 warmup: fromStart ? warmup : 0, ceiling: ceiling, feltRange: feltRange,
                                 warmupMargin: warmupMargin, leadPlans: renderer.leadPlans)
        rendererBase = origin
        if origin <= k && origin >= cacheBase {
            // The motor model follows the frames sent for that stretch (the board played them), not the
            // changed plan's: rendered again, they lead toward the new level before k, which never played.
            renderer.follow(played: cache[(origin - cacheBase)..<(k - cacheBase)])
        } else {
            var discard: [UInt16] = []
            renderer.render(count: k - origin, into: &discard)
        }
        if k < cacheBase + cache.count { cache.removeLast(cacheBase + cache.count - max(k, cacheBase)) }
    }

    private func extendLoop(through index: Int) {
        let horizon = breathTime(ofFrame: index) + 60
        guard plan.duration < horizon else { return }
        let k = cacheBase + cache.count
        plan.extend(through: horizon + 120)
        restart(at: k)
    }
}
