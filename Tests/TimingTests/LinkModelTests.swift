// Each simulated USB-serial adapter against its documented behaviour, restated here from the sources in
// docs/link-models.md ("Link models") rather than read from LinkModel: FTDI's latency timer and 62-byte
// packets, CH340's 32- and CP2102's 64-byte packets, native CDC's 1 ms frames, the UART's byte time.
// Judged in virtual time on the simulated world's clock; the USB frame grid is found from the host-to-board
// direction and must be the same one the board-to-host packets use (one bus, one start-of-frame).
// SPDX-License-Identifier: Apache-2.0

import Breath
import SimBoard
import Testing
import TimingBench
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LinkModelTests {
    /// 8N1 at 115200 baud: 10 bits a byte, 86.8 µs.
    static let byte115200 = 1e10 / 115_200
    static let frame = 1e6  // USB full speed: a start-of-frame every 1 ms

    /// Distance of `x` from the nearest multiple of `period` (ns).
    func offGrid(_ x: Double, _ period: Double) -> Double {
        let r = x.truncatingRemainder(dividingBy: period)
        return min(r, period - r)
    }

    func world(_ link: String, seed: UInt64) throws -> SimWorld {
        // A 1 GHz board clock without drift: the naive board's arrival ticks are world nanoseconds.
        SimWorld(impairments: try LinkImpairments.parse(link + ",clock=1000000000hz"), pacing: .virtual, firmware: NaiveBoard(), seed: seed)
    }

    /// Host writes of 1...8 bytes at seeded instants 3-8 ms apart (the UART idle each time): (sent, arrival of
    /// the last byte at the board, count), all in world ns.
    func hostToBoard(_ w: SimWorld, seed: UInt64, trials: Int = 150) throws -> [(sent: Double, arrived: Double, n: Int)] {
        var rng = SplitMix64(seed: seed)
        var writes: [(UInt64, Int)] = []
        for _ in 0..<trials {
            let t = w.nowNs + 3_000_000 + rng.next() % 5_000_000
            w.run(until: t)
            let n = 1 + Int(rng.next() % 8)
            try w.hostLink.write([UInt8](repeating: 0x55, count: n), timeoutMs: 100)
            writes.append((t, n))
        }
        w.run(until: w.nowNs + 20_000_000)
        let log = w.naiveLog
        #expect(log.count == writes.reduce(0) { $0 + $1.1 }, "every byte reaches the board")
        var out: [(Double, Double, Int)] = []
        var i = 0
        for (t, n) in writes where i + n <= log.count {
            out.append((Double(t), Double(w.clock.hostNs(atTick: log[i + n - 1].tick)), n))
            i += n
        }
        return out
    }

    /// Checks the host-to-board direction: out in the next 1 ms frame, then `byteNs` per byte on the UART.
    /// Returns the frame grid's phase (ns, 0..<1 ms) found from the arrivals.
    @discardableResult
    func checkHostToBoard(_ w: SimWorld, byteNs: Double, seed: UInt64, _ name: String) throws -> Double {
        let r = try hostToBoard(w, seed: seed)
        let phases = r.map { ($0.arrived - Double($0.n) * byteNs).truncatingRemainder(dividingBy: Self.frame) }
        let phase = phases[0]
        var waits: [Double] = []
        for (x, p) in zip(r, phases) {
            let wait = x.arrived - Double(x.n) * byteNs - x.sent
            waits.append(wait)
            #expect(wait >= -2 && wait < Self.frame + 2, "\(name): \(x.n) bytes written at \(x.sent) ns reached the board \(x.arrived - x.sent) ns later: wait for the frame \(wait) ns")
            #expect(offGrid(p - phase, Self.frame) <= 2, "\(name): frame start \(p) ns off the grid at \(phase) ns")
        }
        // Writes at random instants wait anywhere in a frame.
        #expect(waits.min()! < 0.1 * Self.frame && waits.max()! > 0.9 * Self.frame, "\(name): waits \(waits.min()!)...\(waits.max()!) ns")
        return phase
    }

    /// The board's UART sends `size` bytes at seeded instants `gap` + 0...`spread` apart; each burst's packets as
    /// the host reads them one by one: (sent, [(arrival, bytes)]).
    func boardToHost(_ w: SimWorld, size: Int, trials: Int, gapNs: UInt64, spreadNs: UInt64, seed: UInt64) throws
        -> [(sent: Double, packets: [(at: Double, n: Int)])] {
        var rng = SplitMix64(seed: seed &+ 99)
        var out: [(Double, [(Double, Int)])] = []
        for _ in 0..<trials {
            let t = w.nowNs + gapNs + rng.next() % spreadNs
            w.run(until: t)
            w.boardSends([UInt8](repeating: 0x41, count: size))
            var packets: [(Double, Int)] = [], total = 0
            while total < size {
                let b = try w.hostLink.read(maxBytes: 1, timeoutMs: 300)  // one packet per read
                guard !b.isEmpty else { break }
                packets.append((Double(w.hostClock.nowNs()), b.count))
                total += b.count
            }
            #expect(total == size, "all \(size) bytes arrive")
            out.append((Double(t), packets))
        }
        return out
    }

    /// A short reply held by the chip: its last byte reaches the host within `hold` after it crossed the UART;
    /// every packet on the grid (`grid` + k * `period`); it is split only when the hold ran out while its
    /// bytes were still crossing the UART. Returns the wait beyond the UART time.
    func checkReply(_ x: (sent: Double, packets: [(at: Double, n: Int)]), size: Int, byteNs: Double, hold: Double,
                    grid: Double, period: Double, _ name: String) -> Double {
        let lastIn = x.sent + Double(size) * byteNs
        let e = x.packets.last!.at - lastIn
        #expect(e >= -2 && e <= hold + 2, "\(name): \(size)-byte reply sent at \(x.sent) ns waited \(e) ns beyond its UART time")
        for p in x.packets {
            #expect(offGrid(p.at - grid, period) <= 2, "\(name): a packet at \(p.at) ns is off the grid (\(grid) + k * \(period) ns)")
        }
        for p in x.packets.dropLast() {
            #expect(p.at < lastIn, "\(name): reply split into \(x.packets.map(\.n)) although the hold ran out after it was all in")
        }
        return e
    }

    // MARK: - FTDI (AN232B-04)

    /// A 5-byte reply waits for the latency timer: it reaches the host 0-16 ms after its last byte left the
    /// UART, spread over the timer, in one packet; and as the timer counts from the last send (status-only
    /// packets restart it when there is nothing to send), every arrival falls on one 16 ms grid.
    @Test func ftdiShortRepliesWaitForTheLatencyTimer() throws {
        let w = try world("ftdi", seed: 3)
        try checkHostToBoard(w, byteNs: Self.byte115200, seed: 3, "ftdi")
        let r = try boardToHost(w, size: 5, trials: 200, gapNs: 20_000_000, spreadNs: 40_000_000, seed: 3)
        var excess: [Double] = []
        let grid = r[0].packets[0].at
        var split = 0
        for x in r {
            excess.append(checkReply(x, size: 5, byteNs: Self.byte115200, hold: 16e6, grid: grid, period: 16e6, "ftdi"))
            if x.packets.count > 1 { split += 1 }
        }
        // The timer expires while a reply crosses the UART (434 µs of every 16 ms) about 3 % of the time.
        #expect(split <= 20, "ftdi: \(split) of 200 replies split")
        let mean = excess.reduce(0, +) / Double(excess.count)
        print("ftdi 16 ms: 5-byte reply waits \(excess.min()! / 1e6)...\(excess.max()! / 1e6) ms, mean \(mean / 1e6) ms")
        #expect(excess.min()! < 1.5e6 && excess.max()! > 14.5e6 && abs(mean - 8e6) < 1.5e6, "spread over the timer: \(excess.min()!)...\(excess.max()!), mean \(mean)")
    }

    /// A long burst: every packet that fills (62 data bytes, 64 with the status bytes) leaves the moment its
    /// 62nd byte is in, without waiting for the timer; never more than 62 in a packet; a part-filled packet
    /// leaves only when the timer expires, a whole number of 16 ms after the previous packet.
    @Test func ftdiFullPacketsLeaveAtOnce() throws {
        let w = try world("ftdi", seed: 5)
        let r = try boardToHost(w, size: 200, trials: 20, gapNs: 40_000_000, spreadNs: 30_000_000, seed: 5)
        var previous: Double?, full = 0
        for x in r {
            var cumulative = 0
            for p in x.packets {
                cumulative += p.n
                #expect(p.n <= 62, "a packet of \(p.n) data bytes")
                let lastByteIn = x.sent + Double(cumulative) * Self.byte115200
                if p.n == 62 {
                    full += 1
                    #expect(abs(p.at - lastByteIn) <= 2, "a full packet at \(p.at) ns, its 62nd byte in at \(lastByteIn) ns")
                } else if let previous {
                    #expect(offGrid(p.at - previous, 16e6) <= 2,
                            "a part-filled packet \(p.at - previous) ns after the previous packet: not when the timer expires")
                }
                #expect(p.at >= lastByteIn - 2, "a packet before its bytes crossed the UART")
                previous = p.at
            }
        }
        print("ftdi: \(full) packets of 62 bytes left at once over 20 bursts of 200 bytes")
        #expect(full >= 40, "at least two full packets per burst of 200 bytes (62 bytes take 5.4 ms of the 16 ms timer): \(full)")
    }

    /// The low-latency setting, by name and as timer=1ms: a 5-byte reply waits 0-1 ms beyond its UART time.
    @Test func ftdiLowLatencyTimerHoldsAtMostOneMillisecond() throws {
        #expect(try LinkImpairments.parse("ftdi,timer=1ms") == LinkImpairments.parse("ftdi-1ms"))
        let w = try world("ftdi,timer=1ms", seed: 7)
        let r = try boardToHost(w, size: 5, trials: 200, gapNs: 3_000_000, spreadNs: 5_000_000, seed: 7)
        let grid = r[0].packets[0].at
        var excess: [Double] = []
        for x in r {
            excess.append(checkReply(x, size: 5, byteNs: Self.byte115200, hold: 1e6, grid: grid, period: 1e6, "ftdi-1ms"))
        }
        #expect(excess.min()! < 0.1e6 && excess.max()! > 0.9e6)
    }

    // MARK: - CH340, CP2102 (bridges handing over a part-filled packet each frame)

    /// A bridge whose partial packets go at the next frame: `packet`-byte packets at most; a full one leaves
    /// the moment its last byte is in, a part-filled one on the USB frame grid the host-to-board direction
    /// shows. 5-byte replies at 115200 wait 0-1 ms beyond their UART time.
    func checkFrameBridge(_ name: String, packet: Int, seed: UInt64) throws {
        let w = try world(name, seed: seed)
        let phase = try checkHostToBoard(w, byteNs: Self.byte115200, seed: seed, name)
        let short = try boardToHost(w, size: 5, trials: 100, gapNs: 3_000_000, spreadNs: 5_000_000, seed: seed)
        for x in short {
            _ = checkReply(x, size: 5, byteNs: Self.byte115200, hold: Self.frame, grid: phase, period: Self.frame, name)
        }
        // At 1 Mbaud (10 µs a byte) a packet can fill within a frame.
        let fast = try world(name + ",baud=1000000", seed: seed)
        let fastPhase = try checkHostToBoard(fast, byteNs: 10_000, seed: seed, name + " at 1 Mbaud")
        let bursts = try boardToHost(fast, size: 3 * packet + 7, trials: 30, gapNs: 5_000_000, spreadNs: 5_000_000, seed: seed)
        var full = 0
        for x in bursts {
            var cumulative = 0
            for p in x.packets {
                cumulative += p.n
                let lastByteIn = x.sent + Double(cumulative) * 10_000
                #expect(p.n <= packet, "\(name): a packet of \(p.n) bytes")
                #expect(p.at >= lastByteIn - 2, "\(name): a packet before its bytes were in")
                if p.n == packet && abs(p.at - lastByteIn) <= 2 { full += 1; continue }
                #expect(offGrid(p.at - fastPhase, Self.frame) <= 2, "\(name): a part-filled packet (\(p.n) bytes) off the frame grid")
            }
        }
        print("\(name): \(full) full \(packet)-byte packets left at once over 30 bursts at 1 Mbaud")
        #expect(full >= 15, "\(name): full packets leave at once: \(full)")
    }

    @Test func ch340SendsThirtyTwoBytePacketsAndPartialOnesEachFrame() throws {
        try checkFrameBridge("ch340", packet: 32, seed: 11)
    }

    @Test func cp2102SendsSixtyFourBytePacketsAndPartialOnesEachFrame() throws {
        try checkFrameBridge("cp2102", packet: 64, seed: 13)
    }

    // MARK: - native USB (CDC-ACM)

    /// No UART: host bytes reach the board at the next frame start exactly (whatever their number and the
    /// baud); board bytes reach the host at the next frame start on the same grid, and a burst that fills
    /// 64-byte packets sends those at once.
    @Test func cdcMovesBytesOnUSBFramesWithoutAByteTime() throws {
        let w = try world("cdc,baud=9600", seed: 17)
        let phase = try checkHostToBoard(w, byteNs: 0, seed: 17, "cdc")
        let short = try boardToHost(w, size: 5, trials: 100, gapNs: 3_000_000, spreadNs: 5_000_000, seed: 17)
        for x in short {
            #expect(x.packets.count == 1, "cdc: no UART, so a reply is whole in the chip at once")
            _ = checkReply(x, size: 5, byteNs: 0, hold: Self.frame, grid: phase, period: Self.frame, "cdc")
        }
        // A reply made the instant a frame's data arrived cannot leave in that frame's start: it waits for the next.
        w.run(until: w.nowNs + 2_300_000)
        try w.hostLink.write([0x01], timeoutMs: 100)
        let grid = UInt64(phase.rounded())
        let arrived = grid + ((w.nowNs - grid) / 1_000_000 + 1) * 1_000_000  // the next frame start (grid found above)
        let before = w.naiveLog.count
        w.run(until: arrived)
        #expect(w.naiveLog.count == before + 1 && w.nowNs == arrived, "cdc: the byte reached the board at the frame start")
        w.boardSends([1, 2, 3])
        _ = try w.hostLink.read(maxBytes: 64, timeoutMs: 10)
        #expect(w.hostClock.nowNs() == arrived + 1_000_000, "cdc: a reply at a frame start \(arrived) ns reached the host at \(w.hostClock.nowNs()) ns, not one frame later")
        let bursts = try boardToHost(w, size: 200, trials: 20, gapNs: 3_000_000, spreadNs: 5_000_000, seed: 17)
        for x in bursts {
            let atOnce = x.packets.filter { $0.at == x.sent }.map(\.n)
            #expect(atOnce == [64, 64, 64], "cdc: full packets at once: \(x.packets)")
            let rest = x.packets.filter { $0.at != x.sent }
            #expect(rest.count == 1 && rest[0].n == 8 && rest[0].at - x.sent < Self.frame + 2 && offGrid(rest[0].at - phase, Self.frame) <= 2,
                    "cdc: the last 8 bytes at the next frame: \(x.packets)")
        }
    }

    // MARK: - the text form

    /// Models combine with the other settings; the symmetric form parses as before, with no model.
    @Test func modelsCombineWithImpairments() throws {
        let l = try LinkImpairments.parse("ftdi,drop=0.001,drift=300ppm")
        #expect(l.model?.kind == .ftdi && l.dropPerByte == 0.001 && l.driftPPM == 300)
        let plain = try LinkImpairments.parse("latency=16ms,jitter=8ms,drift=500ppm")
        #expect(plain.model == nil && plain.latencyNs == 16_000_000 && plain.jitterNs == 8_000_000)
        #expect(throws: ImpairmentError.self) { try LinkImpairments.parse("cdc,timer=1ms") }
        #expect(throws: ImpairmentError.self) { try LinkImpairments.parse("baud=9600") }
        #expect(throws: ImpairmentError.self) { try LinkImpairments.parse("ftdi,ch340") }
        #expect(throws: ImpairmentError.self) { try LinkImpairments.parse("pl2303") }
    }
}

extension SimWorld {
    /// The naive board's log of these tests' worlds: (arrival tick, byte) of every byte it received.
    fileprivate var naiveLog: [(tick: UInt64, value: UInt8)] { (firmware as? NaiveBoard)?.log ?? [] }
}
