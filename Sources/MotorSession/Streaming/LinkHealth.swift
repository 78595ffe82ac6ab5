// What the session knows about the line and the board right now: the last STATUS, the last round
// trip, and whether the line has been corrupting frames lately (which turns on sending batches twice).
// SPDX-License-Identifier: Apache-2.0

import MotorWire

struct LinkHealth {
    /// The board's most recent STATUS.
    var board: Status?
    var rttUs: Double?
    private var errorsSeen = 0
    private var lastErrorNs: UInt64 = 0

    /// Whether frames were corrupted (counted by either side) within the last 5 s; `errors` is the running
    /// total of both sides' counters.
    mutating func lossyLately(errors: Int, now: UInt64) -> Bool {
        if errors > errorsSeen {
            errorsSeen = errors
            lastErrorNs = now
        }
        return lastErrorNs > 0 && elapsed(now, since: lastErrorNs) < 5_000_000_000
    }
}
