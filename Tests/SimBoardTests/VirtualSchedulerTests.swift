// The simulated world's scheduler on its own: virtual time that never goes back, time standing still on
// request, the livelock watchdog (tripped past its limit, reset by a pass that moves, never cleared), and
// real-time pacing counting from its epoch without any livelock accounting.
// SPDX-License-Identifier: Apache-2.0

import HostPlatform
@testable import SimBoard
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct VirtualSchedulerTests {
    @Test func virtualTimeStartsAtZeroAndNeverGoesBack() throws {
        var s = VirtualScheduler(pacing: .virtual, epochNs: nil)
        #expect(s.now == .zero && s.hostNow == .zero)
        let first = s.nextPass(earliest: HostNanos(5_000))
        let a = try #require(first)
        #expect(a == HostNanos(5_000))
        s.advance(to: a)
        // An event already past is handled now, not back in time.
        let b = s.nextPass(earliest: HostNanos(3_000))
        #expect(b == HostNanos(5_000))
        #expect(s.sleepBefore(HostNanos(9_000_000_000)) == nil, "virtual time never sleeps")
    }

    @Test func theWatchdogTripsPastItsLimitOfPassesThatLetNoTimePass() {
        var s = VirtualScheduler(pacing: .virtual, epochNs: nil, stillLimit: 10)
        for n in 1...10 {
            let at = s.nextPass(earliest: .zero)
            #expect(at == .zero, "pass \(n)")
        }
        #expect(!s.livelocked)
        let tripped = s.nextPass(earliest: .zero)
        #expect(tripped == nil && s.livelocked)
        // Never cleared: a later event does not revive a livelocked world.
        let later = s.nextPass(earliest: HostNanos(1_000))
        #expect(later == nil)
        #expect("\(s.livelockError)".contains("10 passes") && "\(s.livelockError)".contains("livelock"))
    }

    @Test func aPassThatLetsTimePassResetsTheCount() {
        var s = VirtualScheduler(pacing: .virtual, epochNs: nil, stillLimit: 10)
        for round in 1...5 {
            for _ in 0..<10 { _ = s.nextPass(earliest: s.now) }
            let at = s.nextPass(earliest: s.now + 1)
            #expect(at == s.now + 1, "round \(round)")
            if let at { s.advance(to: at) }
        }
        #expect(!s.livelocked && s.now == HostNanos(5))
    }

    @Test func timeStandingStillAsksForNowAgain() {
        var s = VirtualScheduler(pacing: .virtual, epochNs: nil, stillLimit: 3)
        s.advance(to: HostNanos(7))
        s.frozen = true
        let at = s.nextPass(earliest: HostNanos(1_000_000))
        #expect(at == HostNanos(7))
        for _ in 0..<3 { _ = s.nextPass(earliest: HostNanos(1_000_000)) }
        #expect(s.livelocked)
    }

    @Test func realTimeCountsFromItsEpochAndNeverLivelocks() throws {
        // Bounds from the wall clock read around each step, not a window: a parallel run can hold this thread
        // for seconds between two lines.
        let epoch = MonotonicClock.nowNs() - 5_000_000_000
        var s = VirtualScheduler(pacing: .realTime, epochNs: epoch, stillLimit: 3)
        let afterInit = MonotonicClock.nowNs() - epoch
        #expect(s.now >= HostNanos(5_000_000_000) && s.now <= HostNanos(afterInit))
        #expect(s.hostNow >= s.now)
        for _ in 0..<10 {
            let at = s.nextPass(earliest: .zero)
            #expect(at == s.now)
        }
        #expect(!s.livelocked)
        // A pass a second ahead of the wall waits for it; one behind does not.
        let asked = MonotonicClock.nowNs()
        let wait = try #require(s.sleepBefore(s.realNow() + 1_000_000_000))
        let elapsed = MonotonicClock.nowNs() - asked
        #expect(wait + elapsed >= 1_000_000_000 && wait <= 1_000_000_000)
        #expect(s.sleepBefore(s.now) == nil)
    }
}
