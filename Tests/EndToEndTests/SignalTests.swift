// Real processes, real signals: Ctrl-C, SIGTERM and SIGHUP stop the motor with a STOP and exit 128+n;
// a host stopped for 150 ms does not trip the failsafe; a killed host does, within 250 ms. The oracle is
// the simulated board's drive log on its own clock, and the tick of the last message it heard: a STOP
// turns the motor off as it arrives, the failsafe one failsafe period later.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct SignalTests {
    func startHost(_ pty: String, _ arguments: [String] = ["--quiet", "--pattern", "4-0-4"]) throws -> Process {
        let p = Process()
        p.executableURL = motorbreathBinary
        p.environment = testEnvironment()
        p.arguments = arguments + ["--port", pty]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// The motor went off because a message said so: at the tick the board heard its last message.
    func offByStop(_ drive: DriveRecord) throws -> Bool {
        let off = try #require(drive.lastOff), heard = try #require(drive.lastRxTick)
        return drive.changes.last?.level == 0 && off >= heard && off - heard < 20_000
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func aSignalStopsTheMotorWithAStop(signal: Int32, status: Int32) throws {
        let board = try SimBoardProcess()
        defer { board.kill() }
        let host = try startHost(board.ptyPath)
        defer { if host.isRunning { kill(host.processIdentifier, SIGKILL) } }
        usleep(2_500_000)  // playing the inhale by now
        kill(host.processIdentifier, signal)
        host.waitUntilExit()
        let drive = board.stop()
        #expect(host.terminationStatus == status)
        #expect(drive.changes.contains { $0.level > 0 })  // it was playing
        #expect(try offByStop(drive), "the motor was not turned off by the host's STOP")
        #expect(drive.failsafeTrips == 0)
    }

    @Test func killedHostTripsTheFailsafeWithin250ms() throws {
        let board = try SimBoardProcess()
        defer { board.kill() }
        let host = try startHost(board.ptyPath)
        usleep(2_500_000)
        kill(host.processIdentifier, SIGKILL)  // no chance to send STOP
        host.waitUntilExit()
        usleep(600_000)                        // the failsafe is 200 ms
        let drive = board.stop()
        #expect(drive.changes.contains { $0.level > 0 })
        #expect(drive.changes.last?.level == 0)
        #expect(drive.failsafeTrips == 1)
        // Off one failsafe period after the last message the board heard (not when the process ended).
        let off = try #require(drive.lastOff), heard = try #require(drive.lastRxTick)
        #expect(off > heard + 190_000 && off - heard <= 250_000, "off \(off - heard) µs after the host's last message")
    }

    @Test func aHostStoppedFor150msDoesNotTripTheFailsafe() throws {
        let board = try SimBoardProcess()
        defer { board.kill() }
        let host = try RunningMotorbreath(["--pattern", "2-1-3", "--json", "--quiet", "--port", board.ptyPath])
        usleep(2_000_000)
        kill(host.process.processIdentifier, SIGSTOP)
        usleep(150_000)
        kill(host.process.processIdentifier, SIGCONT)
        let result = host.finish(timeout: 60)
        let drive = board.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let report = try jsonObject(result.stdout)
        #expect(drive.failsafeTrips == 0)
        #expect(report["failsafe_trips"] as? Int == 0)
        #expect(report["reconnects"] as? Int == 0)
        #expect(report["underruns"] as? Int == 0)  // the buffer covered the stall: no frame lost
        #expect(report["frames_played"] as? Int == report["frames_total"] as? Int)
        #expect((report["host_longest_silence_ms"] as? Double ?? 0) >= 150)  // the stall was real
    }

    @Test func ctrlCStopsABenchMidRunWithTheMotorOff() throws {
        let board = try SimBoardProcess()
        defer { board.kill() }
        let host = try startHost(board.ptyPath, ["bench", "--seconds", "30"])
        usleep(2_500_000)  // in the 30 s schedule step by now
        kill(host.processIdentifier, SIGINT)
        host.waitUntilExit()
        let drive = board.stop()
        #expect(host.terminationStatus == 130)
        #expect(drive.changes.contains { $0.level > 0 })
        #expect(try offByStop(drive))
    }
}
