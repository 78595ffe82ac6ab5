// What a session plays: a breath (steerable, optionally repeated) or a fixed haptic pattern (an AHAP file's).
// SPDX-License-Identifier: Apache-2.0

import Breath

/// What a ``Playback`` plays on its boards.
///
///     let content = PlaybackContent.breath(BreathPlan(pattern: try BreathPattern.parse("box"), options: BreathOptions()))
public enum PlaybackContent: Sendable {
    /// A breath pattern laid out as `plan`; steerable while it plays. With `loop` it repeats until a
    /// `finish` change or a stop.
    case breath(BreathPlan, loop: Bool = false)
    /// A fixed haptic pattern of `duration` seconds (an AHAP file's): it plays as it is.
    case haptics(HapticPattern, duration: Double)

    /// The breath plan (nil for a fixed pattern).
    public var plan: BreathPlan? {
        if case .breath(let plan, _) = self { return plan }
        return nil
    }

    /// True for a breath repeated until stopped.
    public var loops: Bool {
        if case .breath(_, let loop) = self { return loop }
        return false
    }
}

/// One board's place when several play one breath: where its swells fall and its strength (`BreathSpread`),
/// and its own offset after the common start.
public struct Placement: Sendable {
    /// Nil: the breath as one board plays it (only the offset applies).
    public var spread: BreathSpread?
    public var offsetMs: Int

    public init(spread: BreathSpread?, offsetMs: Int = 0) {
        self.spread = spread
        self.offsetMs = offsetMs
    }
}
