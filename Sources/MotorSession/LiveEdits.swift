// The live-edit part of a `Player`: changes waiting for the board's proof that they reached the motor,
// events held until the board's clock passes their tick, and what the board's output lead and the
// re-rendering time leave changeable.
// SPDX-License-Identifier: Apache-2.0

/// The state of a breath's live changes and the events they and its phases give.
struct LiveEdits {
    var pendingEffects: [PendingEffect] = []
    /// Events waiting for the board's clock to pass their tick (see `Player.releaseEvents`).
    var heldEvents: [(event: SessionEvent, tick: UInt64)] = []
    var lastPhaseEventFrame = -1
    /// How many frames ahead of their tick the board hands them to its output (seen in its STATUS).
    var boardLeadFrames = 0
    /// How long re-rendering for a change took lately (a running mean).
    var applyNs: UInt64 = 20_000_000

    /// Frames the board moves on while a change is re-rendered (half again the recent mean, plus one).
    func renderFrames(rate: Int) -> Int { Int(applyNs * 3 / 2 * UInt64(rate) / 1_000_000_000) + 1 }

    /// Re-rendering for a change took `ns`.
    mutating func noteApply(ns: UInt64) { applyNs = (applyNs + ns) / 2 }
}
