// What the session streams: duty values by frame index, rendered on demand within a bounded window.
// SPDX-License-Identifier: Apache-2.0

import Breath

/// Duty frames by index. Callers read forward (sending) and a little backward (resends, PLAYED checks).
public protocol FrameSource: AnyObject {
    var frameCount: Int { get }
    func frames(from start: Int, count: Int) -> [UInt16]
    /// Frames of warm-up before breath time 0.
    var warmupFrames: Int { get }
    /// This source as one that can change while it plays (nil: a fixed pattern).
    var steerable: (any SteerableFrames)? { get }
}

extension FrameSource {
    public var warmupFrames: Int { 0 }
    public var steerable: (any SteerableFrames)? { nil }
}

/// Wraps a sequential `FrameRenderer`: renders ahead as frames are asked for and keeps the most recent
/// `keep` frames for resends and checks, so memory does not grow with the session's length.
public final class FrameWindow: FrameSource {
    private var renderer: FrameRenderer
    private var cache: [UInt16] = []
    private var base = 0
    private let keep: Int

    public init(_ renderer: FrameRenderer, keep: Int = 16_384) {
        self.renderer = renderer
        self.keep = keep
    }

    public var frameCount: Int { renderer.frameCount }
    public var warmupFrames: Int { renderer.warmupFrames }

    /// Frames [start, start + count) clipped to the end. Frames older than the window are no longer
    /// available and come back as zeros (a caller asking for them has a bug; a precondition would stop the motor
    /// path, so the miss is visible in the duty CRC check instead).
    public func frames(from start: Int, count: Int) -> [UInt16] {
        let end = min(start + count, frameCount)
        guard end > start else { return [] }
        while base + cache.count < end {
            renderer.render(count: max(256, end - base - cache.count), into: &cache)
        }
        if cache.count > keep * 2 {
            let drop = cache.count - keep
            cache.removeFirst(drop)
            base += drop
        }
        return (start..<end).map { $0 >= base ? cache[$0 - base] : 0 }
    }
}
