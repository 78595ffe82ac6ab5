// Prepare's budget: once the board has answered HELLO, CONFIGURE and the clock sync end within
// `prepareBudgetMs` as soon as enough CLOCK exchanges have answered, and never with fewer. Timed on the
// simulated world's virtual clock (the host's clock is the world's: no host sleep is measured).
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct PrepareBudgetTests {
    /// Seeds 1...20 on the benchmark's 16 +- 8 ms link: every prepare within 300 ms (issue 16's goal; when
    /// the sync waited for its estimate to settle, 218-361 ms), each with at least `clockSamples` exchanges.
    @Test func prepareOnTheBenchmarkLinkTakesAtMost300Ms() throws {
        let link = try LinkImpairments.parse("latency=16ms,jitter=8ms,drift=500ppm")
        let options = SessionOptions()
        var times: [Double] = []
        for seed in UInt64(1)...20 {
            let (ms, samples) = try prepare(link, seed: seed, options)
            times.append(ms)
            #expect(samples >= options.clockSamples, "seed \(seed): \(samples) exchanges")
        }
        print("prepare over seeds 1...20: \(times.map { Int($0.rounded()) }) ms")
        #expect(times.max()! <= 300, "longest prepare \(times.max()!) ms")
    }

    /// On a line that loses many exchanges (2 % of bytes corrupted: about half the CLOCK exchanges survive)
    /// the budget runs out long before 16 have answered: the sync goes on until they have.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theBudgetNeverEndsTheSyncWithTooFewExchanges(seed: UInt64) throws {
        let link = try LinkImpairments.parse("latency=16ms,jitter=8ms,drift=500ppm,corrupt=0.02")
        let options = SessionOptions()
        let (ms, samples) = try prepare(link, seed: seed, options)
        print("2 % corruption, seed \(seed): prepare \(ms) ms, \(samples) exchanges")
        #expect(samples >= options.clockSamples)
        #expect(ms > Double(options.prepareBudgetMs), "the lossy line should have needed more than the budget")
    }

    /// Prepares a simulated board over `link`: virtual milliseconds taken and CLOCK exchanges answered.
    func prepare(_ link: LinkImpairments, seed: UInt64, _ options: SessionOptions) throws -> (ms: Double, samples: Int) {
        let world = SimWorld(impairments: link, pacing: .virtual, seed: seed)
        let channel = BoardChannel(link: world.hostLink, clock: world.hostClock)
        let began = world.nowNs
        let prepared = try channel.prepare(options: options)
        return (Double(world.nowNs - began) / 1e6, prepared.clock.samples.count)
    }
}
