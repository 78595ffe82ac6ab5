// The simulated line on its own: latency and jitter drawn once per chunk in a fixed order from the
// world's stream, FIFO whatever the jitter, byte corruption in its documented draw order, counts taken
// before the impairments, whole chunks for the host, what a pulled cable and a board reset lose, and the
// adapter model's USB frames.
// SPDX-License-Identifier: Apache-2.0

import Breath
@testable import SimBoard
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct SimLineTests {
    func line(_ text: String) throws -> SimLine {
        SimLine(impairments: try LinkImpairments.parse(text), adapterSeed: 99)
    }

    /// Each chunk draws one jitter (latency ± jitter, uniform) and nothing else; a chunk never overtakes the
    /// one before it, so a short draw after a long one waits for it.
    @Test func eachChunkDrawsItsJitterOnceAndNoneOvertakes() throws {
        var l = try line("latency=16ms,jitter=8ms")
        var draws = SplitMix64(seed: 42)
        var mirror = SplitMix64(seed: 42)
        var expected: [UInt64] = []
        var last: UInt64 = 0
        for i in 0..<50 {
            let now = HostNanos(UInt64(i) * 1_000_000)
            l.send([UInt8(i)], toHost: false, now: now, draws: &draws)
            let delay = 16e6 + (mirror.unit() * 2 - 1) * 8e6
            last = max(last, now.ns + UInt64(max(0, delay)))
            expected.append(last)
        }
        var got: [UInt64] = []
        while let at = l.nextToBoard {
            _ = l.takeForBoard(by: at)
            got.append(at.ns)
        }
        #expect(got == expected)
        #expect(zip(got, got.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(draws.next() == mirror.next(), "the line drew exactly one number a chunk")
    }

    /// Per byte: corrupt's draw, then the bit it flips; the counts are of the bytes put on the line.
    @Test func corruptionDrawsPerByteInOrder() throws {
        var l = try line("corrupt=0.5")
        var draws = SplitMix64(seed: 7)
        var mirror = SplitMix64(seed: 7)
        let bytes = [UInt8](0..<64)
        l.send(bytes, toHost: true, now: .zero, draws: &draws)
        let expected = bytes.map { b -> UInt8 in mirror.unit() < 0.5 ? b ^ (1 << UInt8(mirror.next() % 8)) : b }
        #expect(l.takeForHost(maxBytes: 4096, by: .zero) == expected)
        #expect(l.bytesToHost == 64 && l.bytesToBoard == 0)
        #expect(draws.next() == mirror.next())
    }

    @Test func bytesAreCountedBeforeTheyAreLost() throws {
        var l = try line("drop=0.5")
        var draws = SplitMix64(seed: 3)
        l.send([UInt8](repeating: 1, count: 1000), toHost: false, now: .zero, draws: &draws)
        #expect(l.bytesToBoard == 1000)
        let arrived = l.takeForBoard(by: .zero)?.count ?? 0
        #expect(arrived > 300 && arrived < 700)
    }

    /// Whole chunks up to `maxBytes`, but always at least one, however long.
    @Test func theHostTakesWholeChunks() throws {
        var l = try line("")
        var draws = SplitMix64(seed: 1)
        for _ in 0..<3 { l.send([UInt8](repeating: 9, count: 10), toHost: true, now: .zero, draws: &draws) }
        #expect(l.hostHasData(by: .zero))
        #expect(l.takeForHost(maxBytes: 15, by: .zero).count == 10)
        #expect(l.takeForHost(maxBytes: 5, by: .zero).count == 10)
        #expect(l.takeForHost(maxBytes: 100, by: .zero).count == 10)
        #expect(!l.hostHasData(by: .zero) && l.takeForHost(maxBytes: 100, by: .zero).isEmpty)
    }

    @Test func aPulledCableLosesBothWaysAndAResetOnlyTheBoardsBytes() throws {
        var l = try line("latency=1ms")
        var draws = SplitMix64(seed: 1)
        l.send([1, 2], toHost: false, now: .zero, draws: &draws)
        l.send([3], toHost: true, now: .zero, draws: &draws)
        #expect(l.bytesInFlightToBoard == 2)
        l.dropFromBoard(now: .zero)
        #expect(l.nextToHost == nil && l.bytesInFlightToBoard == 2)
        l.send([3], toHost: true, now: .zero, draws: &draws)
        l.cut(now: .zero)
        #expect(l.nextToHost == nil && l.nextToBoard == nil && l.bytesInFlightToBoard == 0)
    }

    /// Native USB: host bytes go out in the next 1 ms frame; board bytes wait in the chip for the frame
    /// after they came in, and only then join the host's queue.
    @Test func theAdapterModelSetsTheTimes() throws {
        var l = try line("cdc")
        var draws = SplitMix64(seed: 1)
        let now = HostNanos(10_000_000)
        l.send([1], toHost: false, now: now, draws: &draws)
        let atBoard = try #require(l.nextToBoard)
        #expect(atBoard > now && atBoard - now <= 1_000_000)
        l.send([2, 3], toHost: true, now: now, draws: &draws)
        #expect(l.nextToHost == nil)
        let packet = try #require(l.nextAdapterSend)
        #expect(packet > now && packet - now <= 1_000_000)
        // The USB frame grid is one bus: both directions land on it.
        #expect((packet.ns - atBoard.ns) % 1_000_000 == 0)
        l.releaseAdapterPackets(now: packet, draws: &draws)
        #expect(l.nextToHost == packet && l.takeForHost(maxBytes: 64, by: packet) == [2, 3])
    }
}
