// The firmware itself, built by hardware/firmware/build.sh and running in QEMU, driven by the host over
// a pty: handshake, a whole 4-7-8 checked on the board's clock, STOP, the failsafe after the host is
// killed (seen in QEMU's log of timer writes and in the board's own STATUS), and the bench report.

import Breath
import Foundation
import MotorSession
import MotorWire
import SerialLink
import TestSupport
import Testing

@Suite(.serialized) struct EmulatedBoardTests {
    @Test func handshakeReportsTheFirmwaresInfo() throws {
        let board = try EmulatedBoard()
        defer { board.stop() }
        let r = try runMotorbreath(["info", "--port", board.port, "--json"], timeout: 120)
        #expect(r.status == 0, "\(r.stderr)")
        let info = try jsonObject(r.stdout)
        // The values Board.swift and MotorDrive.swift give the QEMU/ERM build.
        #expect(info["name"] as? String == "motorbreath-qemu-erm")
        #expect(info["firmware"] as? String == "0.2.0")
        #expect(info["protocol_version"] as? Int == Int(Wire.version))
        #expect(info["motor"] as? String == "ERM")
        #expect(info["pwm_bits"] as? Int == 14)  // 168 MHz / 20 kHz = 8400 counts
        #expect(info["capabilities"] as? [String] == [])  // a MOSFET cannot reverse
        #expect(info["buffer_frames"] as? Int == 1024)
        #expect(info["frame_rate_hz"] as? [Int] == [50, 1000])
        #expect(info["clock_hz"] as? Int == 1_000_000)
        #expect(info["state"] as? String == "idle")
        #expect(info["output"] as? Int == 0)
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
        let report = try player.play(frames)

        let total = frames.frameCount
        #expect(total == 19 * 250)
        #expect(report.framesPlayed == total)
        #expect(report.underruns == 0)
        #expect(report.dutyMismatches == 0)  // the board played exactly the rendered duties
        #expect(report.motorOffAtExit)       // STOP: the board's STATUS says output 0
        // Board clock, per frame: output at or after its tick under one of the timebases the host sent,
        // never early, and late only by the firmware's 100 µs wake-up grain plus emulator hiccups.
        let timebases = player.starts.map(\.start.timebase)
        #expect(reports.count == total)
        var lateUs: [Double] = []
        for r in reports {
            let dues = timebases.map { $0.due(r.firstIndex) }.filter { $0 <= r.firstTick }
            guard let due = dues.max() else {
                Issue.record("frame \(r.firstIndex) output at \(r.firstTick), before its tick")
                continue
            }
            lateUs.append(Double(r.firstTick - due))
        }
        let late = Percentiles(lateUs)
        print("emulated board, 4-7-8 on the board clock: late p50 \(late.p50) µs, p99 \(late.p99) µs, max \(late.max) µs")
        #expect(late.p50 < 1_000, "p50 \(late.p50) µs")
        #expect(late.max < 50_000, "max \(late.max) µs")  // loose: a loaded CI machine can pause QEMU
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
        #expect(info["failsafe_trips"] as? Int == 1)
        #expect(info["output"] as? Int == 0)
    }

    @Test func benchReportOnTheEmulatedBoard() throws {
        let board = try EmulatedBoard()
        defer { board.stop() }
        let text = try runMotorbreath(["bench", "--port", board.port, "--seconds", "3"], timeout: 120)
        print(text.stdout)
        #expect(text.status == 0, "\(text.stderr)")
        let r = try runMotorbreath(["bench", "--port", board.port, "--seconds", "3", "--json"], timeout: 120)
        #expect(r.status == 0, "\(r.stderr)")
        let bench = try jsonObject(r.stdout)
        #expect(bench["frames_played"] as? Int == 750)
        #expect(bench["failsafe_motor_off"] as? Bool == true)
        // Board clock from the last message to the motor off: the configured 200 ms, plus at most the
        // firmware's wake-up grain and emulator pauses.
        let latency = try #require(bench["failsafe_latency_ms"] as? Double)
        #expect(latency >= 200 && latency < 260, "\(latency) ms")
        #expect((bench["max_frame_rate_hz"] as? Int ?? 0) >= 250)
        let rtt = try #require(bench["rtt_us"] as? [String: Any])
        #expect(rtt["count"] as? Int == 200)
    }
}
