// The host's ends of the simulated world, through its public API: the link's write reaching the board
// after the line's latency, reads that wait exactly their timeout in virtual time, whole chunks, a pulled
// cable as a disconnect until the board is back, the write filter and read observer, and the host clock.
// SPDX-License-Identifier: Apache-2.0

import SerialLink
import SimBoard
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct HostEndTests {
    final class Tap: SimBoardFirmware, @unchecked Sendable {
        var got: [(bytes: [UInt8], tick: UInt64)] = []
        func received(_ bytes: [UInt8], at tick: UInt64) { got.append((bytes, tick)) }
    }

    /// A 1 GHz board clock without drift: board ticks are the world's nanoseconds plus the offset.
    func world(_ link: String = "latency=2ms", tap: Tap? = nil) throws -> SimWorld {
        SimWorld(impairments: try LinkImpairments.parse(link + ",clock=1000000000hz"), pacing: .virtual, firmware: tap, seed: 1)
    }

    @Test func aWriteReachesTheBoardAfterTheLatency() throws {
        let tap = Tap()
        let w = try world(tap: tap)
        try w.hostLink.write([1, 2, 3], timeoutMs: 10)
        w.run(until: 1_999_999)
        #expect(tap.got.isEmpty)
        w.run(until: 2_000_000)
        #expect(tap.got.count == 1 && tap.got[0].bytes == [1, 2, 3])
        #expect(tap.got.first.map { w.clock.hostNs(atTick: $0.tick) } == 2_000_000)
    }

    @Test func aReadWaitsExactlyItsTimeoutInVirtualTime() throws {
        let w = try world(tap: Tap())
        let link = try #require(w.hostLink as? FineTimeoutLink)
        #expect(try link.readFine(maxBytes: 64, timeoutNs: 1_234_567).isEmpty)
        #expect(w.nowNs == 1_234_567 && w.hostClock.nowNs() == 1_234_567)
        #expect(try w.hostLink.read(maxBytes: 64, timeoutMs: 3).isEmpty)
        #expect(w.nowNs == 4_234_567)
    }

    /// A read returns as soon as bytes are due, whole chunks up to its size (at least one).
    @Test func aReadReturnsWholeChunksAsTheyArrive() throws {
        let w = try world(tap: Tap())
        for _ in 0..<3 { w.boardSends([UInt8](repeating: 7, count: 10)) }
        #expect(try w.hostLink.read(maxBytes: 15, timeoutMs: 100).count == 10)
        #expect(w.nowNs == 2_000_000, "woke when the bytes were due, not at the timeout")
        #expect(try w.hostLink.read(maxBytes: 5, timeoutMs: 100).count == 10)
        #expect(try w.hostLink.read(maxBytes: 64, timeoutMs: 100).count == 10)
        #expect(w.bytesToHost == 30)
    }

    /// While the cable is out a write fails at once and a read waits (to the board's return or its timeout)
    /// and fails: both a disconnect, which a session reconnects from. Then the rebooted board announces itself.
    @Test func aPulledCableIsADisconnectUntilTheBoardIsBack() throws {
        let w = try world()
        _ = try w.hostLink.read(maxBytes: 4096, timeoutMs: 50)  // the INFO of the first boot
        w.unplug(forNs: 300_000_000)
        let start = w.nowNs
        #expect { try w.hostLink.write([0], timeoutMs: 10) } throws: { "\($0)" == "\(LinkError.disconnected(path: "simulated board"))" }
        #expect(throws: LinkError.self) { _ = try w.hostLink.read(maxBytes: 64, timeoutMs: 100) }
        #expect(w.nowNs == start + 100_000_000)
        #expect(throws: LinkError.self) { _ = try w.hostLink.read(maxBytes: 64, timeoutMs: 1000) }
        #expect(w.nowNs == start + 300_000_000)
        #expect(try !w.hostLink.read(maxBytes: 4096, timeoutMs: 50).isEmpty, "the rebooted board's INFO")
        #expect(w.boots == 1)
    }

    @Test func theWriteFilterLosesAWriteAndTheReadObserverSeesEachRead() throws {
        let tap = Tap()
        let w = try world(tap: tap)
        var seen: [(UInt64, Int)] = []
        w.hostWriteFilter = { at, bytes in bytes != [0xEE] }
        w.hostReadObserver = { at, bytes in seen.append((at, bytes.count)) }
        try w.hostLink.write([0xEE], timeoutMs: 10)
        try w.hostLink.write([0x01], timeoutMs: 10)
        w.boardSends([1, 2])
        _ = try w.hostLink.read(maxBytes: 64, timeoutMs: 10)
        #expect(tap.got.map(\.bytes) == [[0x01]])
        #expect(w.bytesToBoard == 1, "a filtered write never reached the line")
        #expect(seen.count == 1 && seen.first?.0 == 2_000_000 && seen.first?.1 == 2)
    }
}
