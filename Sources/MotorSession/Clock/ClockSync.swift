// CLOCK exchanges during playback: when the next request is due, which replies answer which request,
// and the tracker they feed. Requests go out without waiting for replies (matched by token), so a lost
// reply costs one sample, not a timeout. Steady requests go in bursts: a request whose reply comes before
// the next request is due brings that one forward to the reply (the host is awake for it anyway), so a
// pair of exchanges costs the host three wake-ups instead of four, at the same number a second.
// SPDX-License-Identifier: Apache-2.0

import MotorWire
import SerialLink

struct ClockSync {
    var tracker: ClockTracker
    /// The adapter, when known: each exchange's minima and the requests' spread (LinkAwareSync).
    var link: LinkAwareSync?
    /// Requests sent and not yet answered: when, whether the line was idle, and how many more requests of
    /// its burst may follow its reply early.
    private var outstanding: [UInt32: (sent: UInt64, idle: Bool, more: Int)] = [:]
    /// Requests of the burst whose reply came last that may still go early (the next one: `followUp`).
    private(set) var followUpsLeft = 0
    private var nextToken: UInt32 = 1_000
    /// When the next request is due.
    private(set) var nextDueNs: UInt64 = 0
    /// How many of the last 50 round trips took under `fastRoundTripNs` (counted as each reply comes in, not
    /// at every turn of the loop that asks: `StreamTiming.fastLink`).
    private(set) var fastRoundTrips = 0
    /// A round trip this short is a fast link's (`StreamTiming.fastLink`).
    static let fastRoundTripNs: UInt64 = 2_000_000

    init(tracker: ClockTracker, profile: LinkProfile? = nil) {
        self.tracker = tracker
        link = profile.map(LinkAwareSync.init)
        countFastRoundTrips()
    }

    private mutating func countFastRoundTrips() {
        fastRoundTrips = tracker.recentRoundTrips.lazy.filter { $0 < Self.fastRoundTripNs }.count
    }

    /// A fresh tracker after the board was prepared again (its clock restarted).
    mutating func restart(tracker: ClockTracker) {
        self.tracker = tracker
        outstanding.removeAll()
        followUpsLeft = 0
        countFastRoundTrips()
    }

    /// Whether a request sent in the last second is still unanswered (its reply must be read as it comes).
    func awaitingReply(at now: UInt64) -> Bool {
        outstanding.values.contains { elapsed(now, since: $0.sent) < 1_000_000_000 }
    }

    /// Requests are sent from now on.
    mutating func dueNow(_ now: UInt64) { nextDueNs = now }

    /// The token of a request to send at `now` if one is due; the next one is due `intervalNs` later (on a
    /// known adapter, spread over its hold around that). `lineIdle`: nothing the host wrote before is
    /// still on its way ahead of it (it matters on a known adapter only). `burst`: this request and up to
    /// `burst - 1` after it, each of which may go early, at the reply before it (`followUp`).
    mutating func request(at now: UInt64, intervalNs: UInt64, lineIdle: Bool = false, burst: Int = 1) -> UInt32? {
        guard now >= nextDueNs else { return nil }
        if outstanding.count > 64 { outstanding = outstanding.filter { elapsed(now, since: $0.value.sent) < 2_000_000_000 } }
        let token = issue(at: now, lineIdle: lineIdle, more: max(0, burst - 1))
        nextDueNs = link?.due(after: now, intervalNs: intervalNs, k: UInt64(token)) ?? now + intervalNs
        return token
    }

    /// The token of the next request, brought forward to `now`, just after the last reply came in: when that
    /// reply's burst has requests left and the slowest of the last 50 round trips took less than half of
    /// `intervalNs` (a fast, steady link, where the two wake-ups of an exchange are nearly all the host's
    /// work; on an FTDI adapter the session did not recognise, whose replies wait up to its 16 ms timer, the
    /// estimate fared worse with pairs: LiveControlTests). Its time slot is used up: the
    /// one after it is due `intervalNs` after that slot, so the exchanges a second stay those of the schedule
    /// and no request comes closer than `intervalNs` to the next scheduled one. nil otherwise, and always on a
    /// known adapter, whose requests keep the times `request` spreads over its hold (brought forward to the
    /// replies, half of them would meet the adapter at one phase, and the fastest trips would stop
    /// improving). Slower links keep every request's time.
    mutating func followUp(at now: UInt64, intervalNs: UInt64, lineIdle: Bool = false) -> UInt32? {
        defer { followUpsLeft = 0 }
        guard followUpsLeft > 0, link == nil, now < nextDueNs,
              let slowest = tracker.recentRoundTrips.max(), slowest < intervalNs / 2 else { return nil }
        let token = issue(at: now, lineIdle: lineIdle, more: followUpsLeft - 1)
        nextDueNs += intervalNs
        return token
    }

    /// The token of a request the board is to hold `holdNs` before answering (revision 1.4), sent at `now`
    /// as the last reply came in: the next request goes with its reply, so each exchange costs the host one
    /// wake-up. Should the reply be lost, a plain request is due `holdNs` after it was expected.
    mutating func heldRequest(at now: UInt64, holdNs: UInt64, lineIdle: Bool = false) -> UInt32 {
        followUpsLeft = 0
        let token = issue(at: now, lineIdle: lineIdle, more: 0)
        nextDueNs = now + 2 * holdNs
        return token
    }

    /// A new token, outstanding from `now` (what `reply` matches the answer by).
    private mutating func issue(at now: UInt64, lineIdle: Bool, more: Int) -> UInt32 {
        let token = nextToken
        nextToken &+= 1
        outstanding[token] = (now, lineIdle, more)
        return token
    }

    /// The sample a reply completes (nil for a reply to nothing outstanding: late, duplicated or stale).
    /// `alone`: the reply was the only message in its read (no other bytes shared its packet). `heldTicks`:
    /// how long the board held the request before answering (revision 1.4), taken off the round trip at
    /// the fitted rate (at 45 ms and a rate known to 10 ppm, 0.45 µs).
    mutating func reply(token: UInt32, tick: UInt64, heldTicks: UInt32 = 0, at now: UInt64, alone: Bool = false) -> ClockSample? {
        followUpsLeft = 0
        guard let sent = outstanding.removeValue(forKey: token) else { return nil }
        followUpsLeft = sent.more
        let heldNs = UInt64(saturating: (Double(heldTicks) / tracker.slope).rounded())
        var sample = ClockSample(sentNs: min(sent.sent.plusSaturating(heldNs), now), receivedNs: now, tick: tick)
        if let link {
            (sample.minToBoardNs, sample.minToHostNs) = link.minima(lineWasIdle: sent.idle, replyAlone: alone)
        }
        tracker.add(sample)
        countFastRoundTrips()
        return sample
    }
}
