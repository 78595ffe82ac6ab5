// How fast the streaming renderer is, against evaluating the pattern afresh for every frame: the speed
// figures of `motorbreath fidelity` (meaningful in a release build).
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Frames per second of the streaming renderer (compensated, i16) over a 10-minute session, and of the naive
/// per-frame evaluation of the pattern it replaced, each timed for about `seconds`.
///
///     let speed = RenderSpeed.measure(pattern: try BreathPattern.parse("4-7-8"), frameRate: 250, seconds: 1)
///     print(speed.streaming / speed.naive)  // how many times faster
public enum RenderSpeed {
    /// Both speeds, in frames per second.
    public static func measure(pattern: BreathPattern, frameRate: Int, seconds: Double) -> (streaming: Double, naive: Double) {
        var options = BreathOptions()
        options.length = .minutes(10)
        let plan = BreathPlan(pattern: pattern, options: options)
        return (streaming(plan, frameRate: frameRate, seconds: seconds), naive(plan, frameRate: frameRate, seconds: seconds))
    }

    /// The fastest of the whole renders in the time given: on a shared machine other work only ever slows
    /// a render down, so the fastest is the one closest to what the renderer itself costs.
    static func streaming(_ plan: BreathPlan, frameRate: Int, seconds: Double) -> Double {
        var buffer: [UInt16] = []
        buffer.reserveCapacity(65_536)
        var frames = 0
        var fastest = Double.infinity
        let start = Date()
        repeat {
            let began = Date()
            var r = FrameRenderer(plan: plan, frameRate: frameRate, resolution: .i16)
            frames = 0
            while r.render(count: 65_536, into: &buffer) > 0 {
                frames += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
            fastest = min(fastest, Date().timeIntervalSince(began))
        } while Date().timeIntervalSince(start) < seconds
        return Double(frames) / fastest
    }

    /// The pattern's intensity evaluated for every frame, 20000 frames at a time.
    static func naive(_ plan: BreathPlan, frameRate: Int, seconds: Double) -> Double {
        var frames = 0
        var sink = 0.0
        let start = Date()
        let total = Int(plan.duration * Double(frameRate))
        repeat {
            for i in 0..<min(total, 20_000) { sink += plan.haptics.continuousIntensity(at: Double(i) / Double(frameRate)) }
            frames += min(total, 20_000)
        } while Date().timeIntervalSince(start) < seconds
        let naive = Double(frames) / Date().timeIntervalSince(start)
        if sink < 0 { print(sink) }
        return naive
    }
}
