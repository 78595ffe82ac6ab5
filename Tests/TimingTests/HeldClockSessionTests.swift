// CLOCK requests the board holds (protocol.md revision 1.4, `hold_ms`): on a fast link, once steady, each
// request goes as the last answer comes in and the board holds it 45 ms, so an exchange costs the host one
// wake-up; judged on the simulated board's true clock against the same sessions without holds.
// SPDX-License-Identifier: Apache-2.0

import MotorSession
import MotorWire
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct HeldClockSessionTests {
    /// The CLOCK requests a session wrote, with the world's time and the hold (nil: a plain request); when it
    /// wrote FRAMES, and when its reads brought bytes from the board.
    final class Requests: @unchecked Sendable {
        var sent: [(at: UInt64, holdMs: UInt8?)] = []
        var frames: [UInt64] = []
        var reads: Set<UInt64> = []
        func watch(_ world: SimWorld) {
            world.hostWriteFilter = { [self] at, bytes in
                var decoder = FrameDecoder()
                for b in bytes {
                    guard case .packet(let p)? = decoder.push(b), let m = try? HostMessage(p) else { continue }
                    if case .clockRequest = m { sent.append((at, nil)) }
                    if case .clockRequestHeld(_, let hold) = m { sent.append((at, hold)) }
                    if case .frames = m { frames.append(at) }
                }
                return true
            }
            world.hostReadObserver = { [self] at, _ in reads.insert(at) }
        }
    }

    static func session(seed: UInt64, holds: Bool, minutes: Double, requests: Requests? = nil) throws -> (TimingResult, Player) {
        let (result, player, _) = try ClockRuleSession.run(FastLinkSyncTests.fast, seed: seed, minutes: minutes,
                                                           watch: requests.map { r in { r.watch($0) } }) { $0.holdClockRequests = holds }
        return (result, player)
    }

    /// Once steady (from 4 s), every request is held 45 ms and written at the instant (virtual time: the same
    /// nanosecond) the answer before it came in, so no request costs a wake-up of its own; 21-22 exchanges a
    /// second (45 ms plus a round trip); every round trip, with the hold taken off, under 2 ms. Without
    /// holds the same link gets plain requests at their own times (the 45 ms rule, `FastLinkSyncTests`).
    @Test func eachRequestGoesWithTheLastAnswer() throws {
        let requests = Requests()
        let (_, player) = try Self.session(seed: 3, holds: true, minutes: 0.5, requests: requests)
        let steadyFrom = ClockRuleSession.steadyFromNs(player)
        let answers = Set(player.clockSamples.map(\.receivedNs))
        let steady = requests.sent.filter { $0.at >= steadyFrom }
        let held = steady.filter { $0.holdMs == 45 }
        let atAnAnswer = held.filter { answers.contains($0.at) }
        let seconds = Double(steady.last!.at - steady.first!.at) / 1e9
        let rtts = player.clockSamples.filter { $0.sentNs >= steadyFrom }.map(\.rttNs)
        print("held, seed 3: \(steady.count) steady requests, \(held.count) held 45 ms, \(atAnAnswer.count) at an answer, "
              + "\(Double(steady.count) / seconds)/s, slowest round trip \(rtts.max()!) ns")
        #expect(held.count == steady.count && held.count > 300, "\(steady.count - held.count) plain requests once steady")
        #expect(atAnAnswer.count == held.count, "\(held.count - atAnAnswer.count) held requests at their own time")
        #expect((20.5...22.3).contains(Double(steady.count) / seconds))
        #expect(rtts.max()! < 2_000_000)
        // FRAMES go at a wake-up the loop has for the board's bytes (a batch due before the next answer goes
        // early), none at a time of their own.
        let steadyFrames = requests.frames.filter { $0 >= steadyFrom }
        let alone = steadyFrames.filter { !requests.reads.contains($0) }
        print("held, seed 3: \(steadyFrames.count) FRAMES once steady, \(alone.count) at a time of their own")
        #expect(steadyFrames.count > 50 && alone.isEmpty, "\(alone.count) of \(steadyFrames.count) FRAMES at a wake-up of their own")

        let off = Requests()
        _ = try Self.session(seed: 3, holds: false, minutes: 0.5, requests: off)
        #expect(off.sent.allSatisfy { $0.holdMs == nil } && off.sent.count > 300)
    }

    /// Seeds 1-4, 2 minutes: the settled p99 schedule error (the board's true clock) with held requests within
    /// 1.25x that without (the median over the seeds), and the start unchanged (holds begin after it).
    @Test func heldExchangesKeepTheScheduleError() throws {
        let c = try SettledComparison(seeds: 1...4) { seed, holds in
            try Self.session(seed: seed, holds: holds, minutes: 2).0
        }
        print("settled p99, seeds 1-4: held \(c.a) (median \(c.medianA)), without holds \(c.b) (median \(c.medianB))")
        #expect(c.startsDiffer.isEmpty, "\(c.startsDiffer)")
        #expect(c.medianA <= 1.25 * c.medianB, "settled p99 median: \(c.medianA) µs held, \(c.medianB) µs without")
    }
}
