// The firmware's clock in QEMU: it keeps the host's time (TIM5 read on demand follows QEMU's virtual
// clock, which follows the host's monotonic clock, whatever the load), and a test build whose 32-bit
// counter wraps 15 s after boot plays a breath straight through the wrap.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorSession
import MotorWire
import SerialLink
import Testing

/// In the one serialized suite: one emulator at a time, so the emulated boards do not load each other.
extension EmulatedBoardTests {
    /// The lowest-round-trip CLOCK exchange among `count`, `gapMs` apart: the board tick at its host
    /// midpoint is uncertain by at most half its round trip.
    func bestSample(_ channel: BoardChannel, count: Int, gapMs: Int, token: inout UInt32) throws -> ClockSample {
        var best: ClockSample?
        for _ in 0..<count {
            token &+= 1
            if let s = try? channel.clockSample(token: token, timeoutMs: 500), s.rttNs < best?.rttNs ?? .max { best = s }
            usleep(UInt32(gapMs * 1000))
        }
        return try #require(best)
    }

    /// Board clock against the host's CLOCK_MONOTONIC over 6 s. The old firmware counted 100 µs SysTick
    /// interrupts, lost the ones QEMU delivered late, and ran 2000 ppm (idle) to 32 % (loaded) slow.
    @Test func theBoardClockKeepsTheHostsTime() throws {
        let board = try EmulatedBoard()
        defer { board.stop() }
        let link = try PortOpener.open(path: board.port)
        defer { link.close() }
        let channel = BoardChannel(link: link)
        let info = try channel.hello(timeoutMs: 5000)
        var token: UInt32 = 0
        let first = try bestSample(channel, count: 20, gapMs: 20, token: &token)
        usleep(5_000_000)
        let last = try bestSample(channel, count: 20, gapMs: 20, token: &token)
        let hostS = Double(last.midNs - first.midNs) / 1e9
        let boardS = Double(last.tick - first.tick) / Double(info.clockHz)
        let ppm = (boardS / hostS - 1) * 1e6
        let boundPPM = Double(first.rttNs + last.rttNs) / 2 / 1e9 / hostS * 1e6  // the midpoints' uncertainty
        print("emulated board clock vs host over \(String(format: "%.2f", hostS)) s: \(String(format: "%+.1f", ppm)) ppm "
            + "(measurement uncertainty ±\(String(format: "%.1f", boundPPM)) ppm)")
        #expect(abs(ppm) <= boundPPM + 100, "\(ppm) ppm")
    }

    /// The near-wrap build: TIM5 starts 15 s before its 32-bit wrap and the board clock 15 s before 2^32
    /// ticks. A 4-0-4 breath started about 4 s before the wrap must play every frame on time, on a
    /// clock that passes 2^32 ticks mid-breath without a jump. (The firmware before this counted a
    /// 32-bit SysTick period count with a trapping add: it would have stopped at its wrap.)
    @Test func aBreathPlaysStraightThroughTheCounterWrap() throws {
        let board = try EmulatedBoard(clockNearWrap: true)
        defer { board.stop() }
        let link = try PortOpener.open(path: board.port)
        defer { link.close() }
        let channel = BoardChannel(link: link)
        let info = try channel.hello(timeoutMs: 5000)
        let hz = UInt64(info.clockHz)
        let wrap: UInt64 = 1 << 32
        var token: UInt32 = 0
        let now = try bestSample(channel, count: 3, gapMs: 5, token: &token)
        try #require(now.tick > wrap - 15 * hz && now.tick < wrap - 6 * hz,
                     "the near-wrap build should be 6-15 s before the wrap now, board tick \(now.tick)")
        // Wait until about 4.5 s before the wrap (the breath begins some 0.5 s after prepare).
        usleep(UInt32((wrap - 4_500_000 * (hz / 1_000_000) - now.tick) / (hz / 1_000_000)))

        var options = SessionOptions()
        options.reportEvery = 1
        let prepared = try channel.prepare(options: options)
        let plan = BreathPlan(pattern: try BreathPattern.parse("4-0-4"))
        let frames = FrameWindow(FrameRenderer(plan: plan, frameRate: options.frameRate, resolution: .u8))
        let player = Player(channel: channel, prepared: prepared, options: options)
        var reports: [Played] = []
        player.onPlayed = { reports.append($0) }
        let report = try player.play(frames)

        #expect(report.dutyMismatches == 0 && report.wrongDuties == 0)
        #expect(report.motorOffAtExit)
        if report.failsafeTrips == 0 && report.reconnects == 0 {
            #expect(report.framesPlayed == frames.frameCount)
            #expect(report.underruns == 0)
        } else {
            // The host fell silent long enough for the failsafe (a loaded machine) and resumed the breath
            // further on: frames are missing, which says nothing about the board's clock.
            print("near-wrap board: the host was silent for up to \(Int(report.hostLongestSilenceMs)) ms, "
                + "\(report.failsafeTrips) failsafe trips, \(report.reconnects) reconnects; \(report.framesPlayed) of \(frames.frameCount) frames played")
        }
        let ticks = reports.map(\.firstTick)
        let before = ticks.filter { $0 < wrap }.count, after = ticks.filter { $0 >= wrap }.count
        print("near-wrap board: \(before) frames before 2^32 ticks, \(after) after; first \(ticks.first ?? 0), last \(ticks.last ?? 0)")
        #expect(before > 250 && after > 250, "the breath did not span the wrap: \(before) before, \(after) after")
        // Frame to frame on the board clock: one frame period apart (80,000 ticks at 250 Hz, 20 MHz),
        // give or take the emulator's wake-up latency (or frames skipped after a failsafe); a lost or
        // doubled wrap would be 2^32 ticks (214 s) off, so a loose bound that a loaded machine cannot
        // break still catches it.
        let period = Double(hz) / Double(options.frameRate)
        let steps = zip(ticks, ticks.dropFirst()).map { Double(Int64(bitPattern: $1 &- $0)) - period }
        let worstMs = (steps.map(abs).max() ?? 0) / Double(hz) * 1000
        print("near-wrap board: frame spacing within \(String(format: "%.2f", worstMs)) ms of the period")
        // Never backwards (two frames share a tick when a late wake finds both due: the board catches up).
        for (k, step) in steps.enumerated() where step < -period {
            Issue.record("PLAYED \(reports[k]) then \(reports[k + 1]): the clock went back")
        }
        #expect(worstMs < 5000, "\(worstMs) ms")
    }
}
