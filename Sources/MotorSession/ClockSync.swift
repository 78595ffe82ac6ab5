// CLOCK exchanges during playback: when the next request is due, which replies answer which request,
// and the tracker they feed. Requests go out without waiting for replies (matched by token), so a lost
// reply costs one sample, not a timeout.
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import SerialLink

struct ClockSync {
    var tracker: ClockTracker
    /// The adapter, when known: each exchange's minima and the requests' spread (LinkAwareSync).
    var link: LinkAwareSync?
    private var outstanding: [UInt32: (sent: UInt64, idle: Bool)] = [:]
    private var nextToken: UInt32 = 1_000
    /// When the next request is due.
    private(set) var nextDueNs: UInt64 = 0

    init(tracker: ClockTracker, profile: LinkProfile? = nil) {
        self.tracker = tracker
        link = profile.map(LinkAwareSync.init)
    }

    /// A fresh tracker after the board was prepared again (its clock restarted).
    mutating func restart(tracker: ClockTracker) {
        self.tracker = tracker
        outstanding.removeAll()
    }

    /// Requests are sent from now on.
    mutating func dueNow(_ now: UInt64) { nextDueNs = now }

    /// The token of a request to send at `now` if one is due; the next one is due `intervalNs` later (on a
    /// known adapter, spread over its hold around that). `lineIdle`: nothing the host wrote before is
    /// still on its way ahead of it (it matters on a known adapter only).
    mutating func request(at now: UInt64, intervalNs: UInt64, lineIdle: Bool = false) -> UInt32? {
        guard now >= nextDueNs else { return nil }
        let token = nextToken
        nextToken &+= 1
        if outstanding.count > 64 { outstanding = outstanding.filter { elapsed(now, since: $0.value.sent) < 2_000_000_000 } }
        outstanding[token] = (now, lineIdle)
        nextDueNs = link?.due(after: now, intervalNs: intervalNs, k: UInt64(token)) ?? now + intervalNs
        return token
    }

    /// The sample a reply completes (nil for a reply to nothing outstanding: late, duplicated or stale).
    /// `alone`: the reply was the only message in its read (no other bytes shared its packet).
    mutating func reply(token: UInt32, tick: UInt64, at now: UInt64, alone: Bool = false) -> ClockSample? {
        guard let sent = outstanding.removeValue(forKey: token) else { return nil }
        var sample = ClockSample(sentNs: sent.sent, receivedNs: now, tick: tick)
        if let link {
            (sample.minToBoardNs, sample.minToHostNs) = link.minima(lineWasIdle: sent.idle, replyAlone: alone)
        }
        tracker.add(sample)
        return sample
    }
}
