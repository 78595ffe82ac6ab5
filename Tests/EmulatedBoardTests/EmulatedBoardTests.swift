// The firmware itself, built by hardware/firmware/build.sh and running in QEMU, driven by the host over
// a pty: handshake, a whole 4-7-8 checked on the board's clock, STOP, the failsafe after the host is
// killed (seen in QEMU's log of timer writes and in the board's own STATUS), the bench report, the
// board clock against the host's, and a breath across the clock counter's 32-bit wrap.
//
// Time is judged on the board's own clock (PLAYED ticks against the timebases the host sent). Frames
// can still be late on that clock when the host machine keeps QEMU off the CPU; such a late tail is
// checked against QEMU's own run-queue wait, and cancelled with that reason when the emulator could
// not keep time (see `judgeTail`), instead of passing or failing with the machine's load.
// SPDX-License-Identifier: Apache-2.0

import Breath
import Foundation
import MotorSession
import MotorWire
import SerialLink
import TestSupport
import Testing

/// Fails when the worst lateness passes `boundMs`, unless one of QEMU's threads waited at least that
/// long for a CPU during the measurement: then the emulator could not keep time, and the test is
/// cancelled with the numbers (visible in the test log) rather than failed or passed.
func judgeTail(worstMs: Double, boundMs: Double, qemuWaitMs: Double?, what: String) throws {
    guard worstMs >= boundMs else { return }
    let wait = qemuWaitMs.map { String(format: "%.1f ms", $0) } ?? "an unknown time (no schedstat)"
    if let qemuWaitMs, qemuWaitMs >= worstMs {
        let reason = "the emulator could not keep time: a QEMU thread waited \(wait) for a CPU meanwhile; "
            + "\(what) \(String(format: "%.1f", worstMs)) ms (bound \(boundMs) ms)"
        print("CANCELLED: \(reason)")  // a cancelled test case is not always named in the log
        try Test.cancel(Comment(rawValue: reason))
    }
    Issue.record(Comment(rawValue: "\(what) \(String(format: "%.1f", worstMs)) ms (bound \(boundMs) ms), and no QEMU thread waited more than \(wait) for a CPU"))
}

/// A failsafe trip in a session means the board heard nothing for `failsafeMs`. When the host was not
/// the silent one and one of QEMU's threads waited at least that long for a CPU, the emulator could not
/// keep time (its UART or its CPU stood still): the test is cancelled with the numbers. A silent host
/// is a failure.
func judgeFailsafe(_ report: PlayReport, qemuWaitMs: Double?, failsafeMs: Double) throws {
    guard report.failsafeTrips > 0 || report.reconnects > 0 else { return }
    let what = "the board's failsafe fired \(report.failsafeTrips) times (\(report.reconnects) reconnects, "
        + "\(report.framesPlayed) of \(report.framesTotal) frames played)"
    if report.hostLongestSilenceMs < failsafeMs, let qemuWaitMs, qemuWaitMs >= failsafeMs {
        let reason = "the emulator could not keep time: a QEMU thread waited "
            + "\(Int(qemuWaitMs)) ms for a CPU, the host was silent \(Int(report.hostLongestSilenceMs)) ms at most; \(what)"
        print("CANCELLED: \(reason)")
        try Test.cancel(Comment(rawValue: reason))
    }
    Issue.record(Comment(rawValue: "\(what); the host was silent up to \(Int(report.hostLongestSilenceMs)) ms, "
        + "QEMU waited \(qemuWaitMs.map { String(Int($0)) } ?? "?") ms for a CPU"))
}

@Suite(.tags(.emulated), .serialized, .timeLimit(.minutes(10))) struct EmulatedBoardTests {
    @Test func handshakeReportsTheFirmwaresInfo() throws {
        let board = try EmulatedBoard()
        defer { board.stop() }
        let r = try runMotorbreath(["info", "--port", board.port, "--json"], timeout: 120)
        #expect(r.status == 0, "\(r.stderr)")
        let info = try jsonObject(r.stdout)
        // The values Board.swift and MotorDrive.swift give the QEMU/ERM build.
        #expect(info["name"] as? String == "motorbreath-qemu-erm")
        #expect(info["firmware"] as? String == "0.3.0")
        #expect(info["protocol_version"] as? Int == Int(Wire.version))
        #expect(info["protocol_revision"] as? String == "1.\(Wire.revision)")  // announced (protocol.md section 10)
        #expect(info["motor"] as? String == "ERM")
        #expect(info["pwm_bits"] as? Int == 14)  // 168 MHz / 20 kHz = 8400 counts
        #expect(info["capabilities"] as? [String] == ["drive-ceiling"])  // a MOSFET cannot reverse
        let limits = try #require(info["limits"] as? [String: Any])
        #expect(limits["ceiling_percent"] as? Double == 60 && limits["overdrive_ms"] as? Int == 50)
        #expect(limits["full_drive_mean_percent"] as? Double == 63.6 && limits["full_drive_mean_mv"] as? Int == 3182)  // protocol.md, LIMITS
        #expect(info["buffer_frames"] as? Int == 1024)
        #expect(info["frame_rate_hz"] as? [Int] == [50, 1000])
        #expect(info["clock_hz"] as? Int == 20_000_000)  // TIM5, free-running (QEMU clocks it at 1 GHz / 50)
        #expect(info["state"] as? String == "idle")
        #expect(info["output"] as? Int == 0)
        #expect(info["rx_lost_bytes"] as? Int == 0)  // revision 1.3's STATUS field, asked for by info
    }

    @Test func aWholeFourSevenEightPlaysOnTheBoardsClock() throws {
        let board = try EmulatedBoard()
        defer { board.stop() }
        let link = try PortOpener.open(path: board.port)
        defer { link.close() }
        var options = SessionOptions()
        options.reportEvery = 1  // the board reports every frame it outputs, with the tick
        let channel = BoardChannel(link: link)
        let prepared = try channel.prepare(options: options)
        #expect(prepared.info.name.text == "motorbreath-qemu-erm")
        let plan = BreathPlan(pattern: try BreathPattern.parse("4-7-8"))
        let frames = FrameWindow(FrameRenderer(plan: plan, frameRate: options.frameRate, resolution: .u8))
        let player = Player(channel: channel, prepared: prepared, options: options)
        var reports: [Played] = []
        player.onPlayed = { reports.append($0) }
        let (report, qemuWaitMs) = try board.measuringQemuWait { try player.play(frames) }

        let total = frames.frameCount
        #expect(total == 19 * 250)
        #expect(report.dutyMismatches == 0 && report.wrongDuties == 0)  // the board played exactly the rendered duties
        #expect(report.motorOffAtExit)       // STOP: the board's STATUS says output 0
        try judgeFailsafe(report, qemuWaitMs: qemuWaitMs, failsafeMs: Double(options.failsafeMs))
        #expect(report.framesPlayed == total)
        #expect(report.underruns == 0)
        // Board clock, per frame: output at or after its tick under one of the timebases the host sent,
        // never early, and late by the emulator's wake-up latency (the firmware sets its alarm for the
        // frame's tick), more only while QEMU could not get a CPU.
        let timebases = player.starts.map(\.start.timebase)
        let usPerTick = 1e6 / Double(prepared.info.clockHz)
        // (A PLAYED covers more than one frame when the board's transmit queue was full: output never waits.)
        #expect(reports.reduce(0) { $0 + Int($1.count) } == total)
        var lateUs: [Double] = []
        for r in reports {
            let dues = timebases.map { $0.due(r.firstIndex) }.filter { $0 <= r.firstTick }
            guard let due = dues.max() else {
                Issue.record("frame \(r.firstIndex) output at \(r.firstTick), before its tick")
                continue
            }
            lateUs.append(Double(r.firstTick - due) * usPerTick)
        }
        let late = Percentiles(lateUs)
        print("emulated board, 4-7-8 on the board clock: late p50 \(Int(late.p50)) µs, p99 \(Int(late.p99)) µs, "
            + "max \(Int(late.max)) µs; a QEMU thread waited up to \(qemuWaitMs.map { String(format: "%.1f", $0) } ?? "?") ms for a CPU")
        #expect(late.p50 < 1_000, "p50 \(late.p50) µs")
        try judgeTail(worstMs: late.max / 1000, boundMs: 10, qemuWaitMs: qemuWaitMs, what: "the latest frame was output")
    }

    @Test func theFailsafeStopsTheMotorAfterTheHostIsKilled() throws {
        let board = try EmulatedBoard(trace: true)
        defer { board.stop() }
        let host = try RunningMotorbreath(["--port", board.port, "--pattern", "4-0-4", "--no-warmup", "--quiet"])
        // Wait until the inhale drives the motor: TIM1 CCR1 (offset 0x34) written non-zero.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, try board.timerWrites(offset: 0x34).filter({ $0.value > 0 }).count < 50 { usleep(100_000) }
        #expect(host.process.isRunning)
        kill(host.process.processIdentifier, SIGKILL)  // no STOP, no goodbye
        let killedAt = Date()
        _ = host.finish(timeout: 10)  // already killed: reaps it and removes its output files
        usleep(1_500_000)
        let writes = try board.timerWrites(offset: 0x34)
        let beforeKill = writes.filter { $0.at < killedAt }
        #expect(beforeKill.contains { $0.value > 0 }, "the motor was never driven")
        let last = try #require(writes.last)
        #expect(last.value == 0, "the last duty written is \(last.value)")
        // Host wall clock (QEMU's trace stamps): off within the 200 ms failsafe plus generous slack.
        let offAfterKillMs = last.at.timeIntervalSince(killedAt) * 1000
        print("emulated board: motor off \(Int(offAfterKillMs)) ms after SIGKILL (host wall clock, QEMU trace)")
        #expect(offAfterKillMs < 1000, "\(offAfterKillMs) ms")
        // The board's own word: it tripped the failsafe once and holds the output at 0.
        let info = try jsonObject(try runMotorbreath(["info", "--port", board.port, "--json"], timeout: 120).stdout)
        #expect(info["state"] as? String == "failsafe")
        // At least the one the kill caused (a loaded machine can trip it mid-session too; the host then
        // re-prepares and goes on, so the count is a lower bound here).
        #expect((info["failsafe_trips"] as? Int ?? 0) >= 1)
        #expect(info["output"] as? Int == 0)
    }

    @Test func benchReportOnTheEmulatedBoard() throws {
        let board = try EmulatedBoard()
        defer { board.stop() }
        let text = try runMotorbreath(["bench", "--port", board.port, "--seconds", "3"], timeout: 120)
        print(text.stdout)
        #expect(text.status == 0, "\(text.stderr)")
        let (r, qemuWaitMs) = try board.measuringQemuWait {
            try runMotorbreath(["bench", "--port", board.port, "--seconds", "3", "--json"], timeout: 120)
        }
        #expect(r.status == 0, "\(r.stderr)")
        let bench = try jsonObject(r.stdout)
        #expect(bench["frames_played"] as? Int == 750)
        #expect(bench["failsafe_motor_off"] as? Bool == true)
        // Board clock from the last message to the motor off: the configured 200 ms, plus at most the
        // firmware's wake-up grain and emulator pauses.
        let latency = try #require(bench["failsafe_latency_ms"] as? Double)
        #expect(latency >= 200, "\(latency) ms")
        #expect((bench["max_frame_rate_hz"] as? Int ?? 0) >= 250)
        let rtt = try #require(bench["rtt_us"] as? [String: Any])
        #expect(rtt["count"] as? Int == 200)
        try judgeTail(worstMs: latency - 200, boundMs: 10, qemuWaitMs: qemuWaitMs, what: "the failsafe fired late by")
    }
}
