// Real processes, real signals: Ctrl-C leaves the motor off and exits 130; a killed host trips the failsafe.

import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct SignalTests {
    func startHost(_ pty: String, _ arguments: [String] = ["--quiet", "--pattern", "4-0-4"]) throws -> Process {
        let p = Process()
        p.executableURL = motorbreathBinary
        p.arguments = arguments + ["--port", pty]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    @Test func ctrlCStopsTheMotorAndExits130() throws {
        let board = try SimBoardProcess()
        let host = try startHost(board.ptyPath)
        usleep(2_500_000)  // playing the inhale by now
        kill(host.processIdentifier, SIGINT)
        host.waitUntilExit()
        let drive = board.stop()
        #expect(host.terminationStatus == 130)
        #expect(drive.contains { $0.level > 0 })  // it was playing
        #expect(drive.last?.level == 0)            // and the motor is off
    }

    @Test func killedHostTripsTheFailsafe() throws {
        let board = try SimBoardProcess()
        let host = try startHost(board.ptyPath)
        usleep(2_500_000)
        kill(host.processIdentifier, SIGKILL)  // no chance to send STOP
        host.waitUntilExit()
        usleep(600_000)                        // the failsafe is 200 ms
        let drive = board.stop()
        #expect(drive.contains { $0.level > 0 })
        #expect(drive.last?.level == 0)
        // Off well before the 4 s inhale would have ended on its own.
        let firstOn = try #require(drive.first { $0.level > 0 })
        #expect(drive.last!.tick - firstOn.tick < 3_500_000)
    }

    @Test func ctrlCStopsABenchMidRunWithTheMotorOff() throws {
        let board = try SimBoardProcess()
        let host = try startHost(board.ptyPath, ["bench", "--seconds", "30"])
        usleep(2_500_000)  // in the 30 s schedule step by now
        kill(host.processIdentifier, SIGINT)
        host.waitUntilExit()
        let drive = board.stop()
        #expect(host.terminationStatus == 130)
        #expect(drive.contains { $0.level > 0 })
        #expect(drive.last?.level == 0)
        // Stopped by the host, well before the 30 s step would have ended.
        let firstOn = try #require(drive.first { $0.level > 0 })
        #expect(drive.last!.tick - firstOn.tick < 10_000_000)
    }
}
