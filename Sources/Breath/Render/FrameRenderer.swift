// Renders a breath timeline into duty frames at a fixed frame rate, lazily, chunk by chunk.

/// Duty frames for a timeline: frame i covers [i/rate, (i+1)/rate) and carries the intensity
/// sampled at its start, as an 8-bit (0...255) or 16-bit (0...65535) duty.
public struct FrameRenderer: Sendable {
    public let timeline: BreathTimeline
    public let frameRate: Int
    public let dutyMax: Int

    public init(timeline: BreathTimeline, frameRate: Int, dutyBits: Int = 8) {
        self.timeline = timeline
        self.frameRate = frameRate
        self.dutyMax = dutyBits == 16 ? 65535 : 255
    }

    /// Total frames, rounded up so the last partial frame plays.
    public var frameCount: Int { Int((timeline.duration * Double(frameRate)).rounded(.up)) }

    public func time(ofFrame index: Int) -> Double { Double(index) / Double(frameRate) }

    public func duty(ofFrame index: Int) -> UInt16 {
        let level = timeline.sample(at: time(ofFrame: index)).intensity
        return UInt16((min(max(level, 0), 1) * Double(dutyMax)).rounded())
    }

    /// Frames [start, start + count) clipped to the end.
    public func frames(from start: Int, count: Int) -> [UInt16] {
        let end = min(start + count, frameCount)
        guard end > start else { return [] }
        return (start..<end).map(duty(ofFrame:))
    }
}
