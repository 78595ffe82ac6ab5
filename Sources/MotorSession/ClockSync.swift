// CLOCK exchanges during playback: when the next request is due, which replies answer which request,
// and the tracker they feed. Requests go out without waiting for replies (matched by token), so a lost
// reply costs one sample, not a timeout.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

struct ClockSync {
    var tracker: ClockTracker
    private var outstanding: [UInt32: UInt64] = [:]
    private var nextToken: UInt32 = 1_000
    /// When the next request is due.
    private(set) var nextDueNs: UInt64 = 0

    init(tracker: ClockTracker) { self.tracker = tracker }

    /// A fresh tracker after the board was prepared again (its clock restarted).
    mutating func restart(tracker: ClockTracker) {
        self.tracker = tracker
        outstanding.removeAll()
    }

    /// Requests are sent from now on.
    mutating func dueNow(_ now: UInt64) { nextDueNs = now }

    /// The token of a request to send at `now` if one is due; the next one is due `intervalNs` later.
    mutating func request(at now: UInt64, intervalNs: UInt64) -> UInt32? {
        guard now >= nextDueNs else { return nil }
        let token = nextToken
        nextToken &+= 1
        if outstanding.count > 64 { outstanding = outstanding.filter { elapsed(now, since: $0.value) < 2_000_000_000 } }
        outstanding[token] = now
        nextDueNs = now + intervalNs
        return token
    }

    /// The sample a reply completes (nil for a reply to nothing outstanding: late, duplicated or stale).
    mutating func reply(token: UInt32, tick: UInt64, at now: UInt64) -> ClockSample? {
        guard let sent = outstanding.removeValue(forKey: token) else { return nil }
        let sample = ClockSample(sentNs: sent, receivedNs: now, tick: tick)
        tracker.add(sample)
        return sample
    }
}
