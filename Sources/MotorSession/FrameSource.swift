// What the session streams: a finite sequence of raw duty values, produced on demand.

import Breath

/// Duty frames, rendered lazily; `frames(from:count:)` may be called for any range, any number of times.
public protocol FrameSource: Sendable {
    var frameCount: Int { get }
    func frames(from start: Int, count: Int) -> [UInt16]
}

extension FrameRenderer: FrameSource {}
