// The recovery part of a `Player`: what the session says it is doing, and what reconnecting cost.
// SPDX-License-Identifier: Apache-2.0

/// The reconnects of a session and what they cost; the live line's state text.
struct RecoveryLog {
    /// "playing", or what the session is doing instead ("reconnecting, attempt 2").
    var state = "playing"
    var reconnects = 0
    /// Why each reconnect was needed, in order.
    var reasons: [String] = []
    /// Longest silence caused by a reconnect, ms (last frame before to first frame after).
    var longestGapMs = 0.0
    /// Frames skipped over by reconnects.
    var framesSkipped = 0
    /// The longest the host went without writing to the board, over every stream so far, ms.
    var hostLongestSilenceMs = 0.0

    /// Folds one stream's longest write gap in.
    mutating func noteSilence(ns: UInt64) {
        hostLongestSilenceMs = max(hostLongestSilenceMs, Double(ns) / 1e6)
    }
}
