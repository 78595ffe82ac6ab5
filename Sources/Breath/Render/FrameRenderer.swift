// Renders a pattern into duty frames at a fixed rate, lazily and deterministically, chunk by chunk.
// SPDX-License-Identifier: Apache-2.0

/// Output resolution of the duty values.
public enum DutyResolution: String, Sendable, CaseIterable {
    /// 0...255
    case u8
    /// 0...65535
    case u16
    /// -32767...32767, negative = reverse (braking)
    case i16

    /// Raw steps from off to full drive.
    var stepsPerFullDrive: Double {
        switch self {
        case .u8: 255
        case .u16: 65535
        case .i16: 32767
        }
    }

    /// Maps drive -1...1 to the raw value (i16 as its bit pattern) and back to the drive really output.
    @inline(__always)
    func quantize(_ d: Double) -> (raw: UInt16, drive: Double) { Quantizer(self).quantize(d) }

    /// The raw value for drive `d` (-1...1; below 0 is 0 where the format cannot reverse), as the renderer
    /// quantises it: for frames made without the renderer (a bench's stimulus).
    public func raw(forDrive d: Double) -> UInt16 { quantize(d).raw }
}

/// One rendered frame with everything known about it.
public struct RenderedFrame: Sendable, Equatable {
    /// Breath time in seconds (negative during warm-up).
    public var time: Double
    /// Intended felt intensity at the frame's start.
    public var intensity: Double
    /// Drive -1...1 as output (after quantisation).
    public var drive: Double
    public var raw: UInt16
    /// Modeled felt amplitude at the frame's end.
    public var felt: Double
}

/// Frame i covers [i/rate, (i+1)/rate). Rendering is sequential (the shaper has state), in chunks of any size,
/// with memory independent of the session's length. The same inputs always give the same frames.
public struct FrameRenderer: Sendable {
    public let frameRate: Int
    public let resolution: DutyResolution
    public let frameCount: Int
    /// Seconds rendered after the warm-up: the duration asked for (or the pattern's), extended until the
    /// last tap has been felt on this motor, and at most `HapticPattern.longestSeconds`.
    public let duration: Double
    let envelope: Envelope
    var cursor: Envelope.Cursor
    var shaper: Shaper
    var next = 0
    /// The taps' pulses (each lasts as long as this motor needs to feel it), strongest first where they overlap.
    let pulses: UpperEnvelope
    var pulseCursor = UpperEnvelope.Cursor()
    /// Jumps in the intended intensity, led by the motor's delay (none without compensation), each lead
    /// planned when rendering first reaches it.
    var schedule: LeadSchedule
    /// The shaper before any frame: the one leads are planned with.
    let leadShaper: Shaper
    /// The leads this renderer and those before it planned, for a renderer that follows it.
    public internal(set) var leadPlans: LeadPlans
    var stepIndex = 0
    /// Jumps in the intended intensity, led by the motor's delay (empty without compensation), every lead
    /// planned (rendering plans each only when it reaches it).
    public var steps: [LeadStep] { schedule.planned(shaper: leadShaper, frameRate: frameRate, plans: leadPlans) }
    /// What the shaper aimed for at the end of the previous frame (its "now" for the next one).
    var lastAim: Double?
    /// Frames of warm-up before the breath starts (frame `warmupFrames` is breath time 0).
    public let warmupFrames: Int
    /// While warming up, and until the breath first rises past it, the motor is held at this level.
    let warmupFloor: Double
    var floorActive: Bool
    /// Intended intensity 1 maps to this drive: the motor's ceiling (quantised down), or full drive.
    public let fullScale: Double
    /// A person's felt range (a calibration profile): intensity above 0 lands in it; nil: as intended.
    public let feltRange: FeltRange?

    /// `ceiling`: the motor's voltage ceiling and overdrive budget (a board's LIMITS). The breath is
    /// scaled to it (intensity 1 is the ceiling) and overdrive stays within the budget; nil: full drive.
    ///
    /// `leadPlans`: the leads a renderer of the same motor planned before (`leadPlans` of the renderer this
    /// one follows, as a live breath's restarts hand them on); the frames are the same without.
    public init(pattern: HapticPattern, duration: Double? = nil, frameRate: Int, resolution: DutyResolution = .u8,
                motor: MotorProfile = .referenceERM, compensate: Bool = true, warmup: Double = 0,
                ceiling: DriveCeiling? = nil, feltRange: FeltRange? = nil, warmupMargin: Double = 1.5,
                leadPlans: LeadPlans = LeadPlans()) {
        precondition((1...100_000).contains(frameRate), "frame rate must be 1...100000")
        self.frameRate = frameRate
        self.resolution = resolution
        envelope = Envelope(pattern)
        let tapSeconds = envelope.taps.map { motor.tapSeconds(sharpness: $0.sharpness) }
        pulses = UpperEnvelope(pulses: zip(envelope.taps, tapSeconds).map { ($0.time, $1, $0.intensity) })
        // The pattern lasts until its last tap has been felt, and never longer than the longest pattern.
        let felt = zip(envelope.taps, tapSeconds).lazy.map { $0.time + $1 }.max() ?? 0
        let wanted = max(duration ?? pattern.duration, felt)
        self.duration = wanted.isNaN ? 0 : min(max(wanted, 0), HapticPattern.longestSeconds)
        // Warm-up only means something for an ERM (a resting rotor has to start); an LRA follows at once.
        if case .erm(let m) = motor, compensate, warmup > 0 {
            warmupFrames = Int((min(warmup, 10) * Double(frameRate)).rounded())
            // Spinning, but below what a breath cue starts at: `warmupMargin` times the stop threshold (1.5
            // for a model's guess; a calibrated, measured threshold needs less).
            warmupFloor = warmupMargin * m.stopThreshold
        } else {
            warmupFrames = 0
            warmupFloor = 0
        }
        floorActive = warmupFrames > 0
        frameCount = Int((self.duration * Double(frameRate)).rounded(.up)) + warmupFrames
        cursor = Envelope.Cursor(envelope)
        let limit = ceiling?.quantized(steps: resolution.stepsPerFullDrive)
        fullScale = limit?.level ?? 1
        self.feltRange = feltRange
        shaper = Shaper(profile: motor, frameRate: frameRate, compensate: compensate, allowReverse: resolution == .i16,
                        ceiling: limit)
        // Leads are planned as rendering reaches them, from the shaper as it is here (before any frame).
        schedule = compensate ? LeadSchedule(envelope, tapSeconds: tapSeconds, scale: fullScale, felt: feltRange) : LeadSchedule()
        leadShaper = shaper
        var plans = leadPlans
        plans.use(for: shaper, frameRate: frameRate)
        self.leadPlans = plans
    }

    public init(plan: BreathPlan, frameRate: Int, resolution: DutyResolution = .u8, motor: MotorProfile = .referenceERM,
                compensate: Bool = true, warmup: Double = 0, ceiling: DriveCeiling? = nil, feltRange: FeltRange? = nil,
                warmupMargin: Double = 1.5) {
        self.init(pattern: plan.haptics, duration: plan.duration, frameRate: frameRate, resolution: resolution,
                  motor: motor, compensate: compensate, warmup: warmup, ceiling: ceiling, feltRange: feltRange,
                  warmupMargin: warmupMargin)
    }

    /// Seconds of warm-up before breath time 0.
    public var warmupSeconds: Double { Double(warmupFrames) / Double(frameRate) }

    /// Frames rendered so far.
    public var position: Int { next }

    /// Intended intensity at the start of frame `index` (warm-up frames come first and intend silence).
    @inline(always)
    mutating func intendedAtFrame(_ index: Int) -> Double {
        let t = Double(index - warmupFrames) / Double(frameRate)
        return t < 0 ? 0 : intended(at: t)
    }

    /// Intended intensity at `t` (t non-decreasing across calls): continuous envelope, or a tap's pulse.
    @inline(always)
    mutating func intended(at t: Double) -> Double {
        var v = cursor.intensity(at: t)
        if let tap = pulseCursor.value(at: t, in: pulses) { v = max(v, tap) }
        if let feltRange { v = feltRange.map(v) }
        return v * fullScale
    }

    /// Like `render`, with the intended intensity, drive and modeled felt amplitude of every frame (the
    /// same targets, from `aim`, and the same shaping, one frame at a time).
    public mutating func renderDetailed(count: Int) -> [RenderedFrame] {
        let n = min(count, frameCount - next)
        guard n > 0 else { return [] }
        let rate = Double(frameRate)
        let res = resolution
        var aims = [FrameAim](repeating: FrameAim(intended: 0, now: 0, next: 0), count: n)
        aims.withUnsafeMutableBufferPointer { aim($0) }
        var frames: [RenderedFrame] = []
        frames.reserveCapacity(n)
        for (j, a) in aims.enumerated() {
            var raw: UInt16 = 0
            let d = shaper.drive(now: a.now, next: a.next) { d in
                let q = res.quantize(d)
                raw = q.raw
                return q.drive
            }
            frames.append(RenderedFrame(time: Double(next + j - warmupFrames) / rate, intensity: a.intended, drive: d, raw: raw, felt: shaper.felt))
        }
        next += n
        return frames
    }
}
