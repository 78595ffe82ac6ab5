// A frame source that can be steered while it plays: what a session needs of it to make the changes in
// its inbox and to report the breath's phases as they reach the motor. `LiveFrames` is one.
// SPDX-License-Identifier: Apache-2.0

import Breath

/// Frames of a breath that can change while it plays. A `Player` makes the changes from its `controls`
/// on it and reports its phase starts; a source that is not steerable (`steerable == nil`, a fixed AHAP
/// pattern) has its changes refused.
///
///     if let live = frames.steerable { print(live.plan.cycles) }
public protocol SteerableFrames: FrameSource {
    /// The breath as it stands now (phases, cycles, looping, a pause).
    var plan: LivePlan { get }
    /// Session frame index at breath time `t` (the first frame at or after it).
    func frame(atBreathTime t: Double) -> Int
    /// Why `change` cannot be made from frame `k` on (for example a pattern change with no next cycle),
    /// or nil when it can.
    func refusal(_ change: BreathChange, fromFrame k: Int) -> String?
    /// Makes `change` from frame `k` on; returns the first frame whose duty may differ.
    @discardableResult
    func apply(_ change: BreathChange, fromFrame k: Int) -> Int
}

extension SteerableFrames {
    public var steerable: (any SteerableFrames)? { self }
}

extension LiveFrames: SteerableFrames {}
