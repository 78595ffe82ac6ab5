// The host's view of the board's buffer window: which frames are sent, acknowledged and played, and
// when each was last sent (so a hole the board names is resent once per round trip, not on every NAK).
// SPDX-License-Identifier: Apache-2.0

/// Frame bookkeeping in session frame indices.
struct SendWindow {
    /// The next frame not yet sent (sending goes forward from here).
    var next = 0
    /// One past the highest frame ever sent.
    var highestSent = 0
    /// The board has every frame before this (its cumulative acknowledgement, or PLAYED).
    var acked = 0
    /// PLAYED reports cover every frame before this.
    var playedThrough = 0
    /// When `acked` last moved (for the retransmission timeout).
    var lastProgressNs: UInt64 = 0
    private var sentAt = [(index: Int, at: UInt64)](repeating: (-1, 0), count: 2048)
    private var lastRepairIndex = -1
    private var lastRepairNs: UInt64 = 0

    /// A new stream on the board starting at session frame `first`.
    mutating func restart(at first: Int, now: UInt64) {
        next = first
        highestSent = first
        acked = first
        playedThrough = max(playedThrough, first)
        lastProgressNs = now
    }

    /// Frames [index, index + count) went out at `now`.
    mutating func noteSent(from index: Int, count: Int, at now: UInt64) {
        for i in index..<(index + count) { sentAt[i & 2047] = (i, now) }
        highestSent = max(highestSent, index + count)
    }

    /// How long ago frame `index` was last sent (nil when it is no longer remembered).
    func sentAgoNs(_ index: Int, now: UInt64) -> UInt64? {
        let entry = sentAt[index & 2047]
        return entry.index == index ? elapsed(now, since: entry.at) : nil
    }

    /// The board acknowledged every frame before `index`.
    mutating func acknowledge(through index: Int, at now: UInt64) {
        guard index > acked else { return }
        acked = index
        lastProgressNs = now
    }

    /// Whether a repair from `index` is worth sending now: not the same hole again within `guardNs` (NAKs
    /// for messages sent before the repair keep arriving for a round trip). Notes the repair if so.
    mutating func shouldRepair(from index: Int, now: UInt64, guardNs: UInt64) -> Bool {
        guard index < highestSent else { return false }
        if index == lastRepairIndex && elapsed(now, since: lastRepairNs) < guardNs { return false }
        lastRepairIndex = index
        lastRepairNs = now
        return true
    }
}

/// Nanoseconds from `earlier` to `now`, 0 if `earlier` is later (stamped after `now` was read).
@inline(__always)
func elapsed(_ now: UInt64, since earlier: UInt64) -> UInt64 { now > earlier ? now - earlier : 0 }
