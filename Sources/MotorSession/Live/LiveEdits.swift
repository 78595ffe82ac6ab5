// The live-edit part of a `Player`: changes waiting for the board's proof that they reached the motor,
// events held until the board's clock passes their tick, the REPLACE messages waiting for the board's
// answer, and the board's output lead and the re-rendering time.
// SPDX-License-Identifier: Apache-2.0

/// The state of a breath's live changes and the events they and its phases give.
struct LiveEdits {
    var pendingEffects: [PendingEffect] = []
    /// Events waiting for the board's clock to pass their tick (see `Player.releaseEvents`).
    var heldEvents: [(event: SessionEvent, tick: UInt64)] = []
    var lastPhaseEventFrame = -1
    /// How many frames ahead of their tick the board hands them to its output (seen in its STATUS).
    var boardLeadFrames = 0
    /// How long re-rendering for a change took lately (a running mean, from a generous first guess of 1 ms:
    /// a debug build's order of magnitude at 250 Hz; a release build is faster).
    var applyNs: UInt64 = 1_000_000
    /// REPLACE messages of live changes waiting for the board's answer, and what their frames played.
    var superseded = SupersededFrames()
    /// The id the next live change gets (its REPLACE blocks carry it).
    var nextChangeID = 0

    /// Re-rendering for a change took `ns`.
    mutating func noteApply(ns: UInt64) { applyNs = (applyNs + ns) / 2 }
}
