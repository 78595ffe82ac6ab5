// The benchmark's naive baseline is the best a host-timed streamer can do, not a strawman: on a link that
// adds nothing its bytes reach the board at their due time, and on a 16 +- 8 ms link within the link's
// own delays. Judged by the link's parameters against the board's true clock (the naive board's arrival log).
// SPDX-License-Identifier: Apache-2.0
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct NaiveStreamerTests {
    func run(_ link: String) throws -> TimingResult {
        var scenario = TimingScenario(impairments: try LinkImpairments.parse(link))
        scenario.minutes = 0.2
        scenario.seed = 7
        return try NaiveStreamer.run(scenario)
    }

    @Test func onALinkThatAddsNothingEveryByteArrivesWhenDue() throws {
        let r = try run("latency=0ms,jitter=0ms")
        print("naive on a perfect link: schedule error \(r.scheduleErrorUs) µs")
        #expect(r.framesPlayed == r.frames && r.wrongDuties == 0)
        #expect(r.scheduleErrorUs.max < 50, "\(r.scheduleErrorUs)")  // a send timed to the millisecond was up to 1000 µs late
    }

    @Test func onA16PlusMinus8msLinkTheErrorIsTheLinksDelay() throws {
        let r = try run("latency=16ms,jitter=8ms,drift=500ppm")
        print("naive on 16 +- 8 ms: schedule error \(r.scheduleErrorUs) µs")
        #expect(r.framesPlayed == r.frames && r.wrongDuties == 0)
        #expect(r.scheduleErrorUs.min >= 8_000 - 50 && r.scheduleErrorUs.max <= 24_000 + 50, "\(r.scheduleErrorUs)")
    }
}
