// `motorbreath sim-board` in its own process for the end-to-end tests (running motorbreath itself:
// TestSupport), and its drive log: the simulated board's pin, on the board's own clock.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport

/// What a simulated board process output, read from its drive log.
struct DriveRecord {
    var changes: [(tick: UInt64, level: Int16)] = []
    /// The board clock's origin: tick = offset + (CLOCK_MONOTONIC ns - bootNs) * hz / 1e9 (no drift set).
    var clockHz: UInt64 = 1_000_000
    var offsetTicks: UInt64 = 0
    var bootNs: UInt64 = 0
    /// The board clock's error (sim-board --drift-ppm), ppm.
    var driftPPM = 0.0
    /// Written when the process was stopped with SIGTERM (absent after SIGKILL).
    var endTick: UInt64?
    var lastRxTick: UInt64?
    var failsafeTrips: Int?

    init(text: String) {
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ").map(String.init)
            if f.first == "#" {
                var fields: [String: String] = [:]
                var i = 1
                while i + 1 < f.count {
                    fields[f[i]] = f[i + 1]
                    i += 1
                }
                if f.count > 1 && f[1] == "clock" {
                    clockHz = UInt64(fields["hz"] ?? "") ?? clockHz
                    offsetTicks = UInt64(fields["offset"] ?? "") ?? 0
                    bootNs = UInt64(fields["boot-ns"] ?? "") ?? 0
                    driftPPM = Double(fields["drift-ppm"] ?? "") ?? 0
                } else if f.count > 1 && f[1] == "end" {
                    endTick = UInt64(f[3])
                    lastRxTick = UInt64(fields["last-rx"] ?? "")
                    failsafeTrips = Int(fields["failsafe-trips"] ?? "")
                }
            } else if f.count == 2, let t = UInt64(f[0]), let l = Int16(f[1]) {
                changes.append((t, l))
            }
        }
    }

    /// CLOCK_MONOTONIC ns at board tick `tick` (exact for a board without drift; with drift, to the ns).
    func monotonicNs(atTick tick: UInt64) -> UInt64 {
        guard driftPPM != 0 else { return bootNs + (tick - offsetTicks) * 1_000_000_000 / clockHz }
        return bootNs + UInt64((Double(tick - offsetTicks) * 1e9 / Double(clockHz) / (1 + driftPPM / 1e6)).rounded())
    }

    /// The last time the motor went from on to off, and what turned it off relative to the last message
    /// the board heard: about 0 for a STOP, about the failsafe time when the host went silent.
    var lastOff: UInt64? { changes.last { $0.level == 0 }?.tick }
}

/// `motorbreath sim-board` in its own process; `ptyPath` is the tty the host opens.
final class SimBoardProcess {
    let process = Process()
    let ptyPath: String
    let driveLog: URL

    /// Held while the board runs: real-time tests share the machine, except with the deliberate load.
    private let gate: RealTimeGate?

    /// `gated: false` only for the test that holds the gate exclusively itself.
    init(arguments: [String] = [], echo: Bool = false, gated: Bool = true) throws {
        gate = gated ? RealTimeGate() : nil
        driveLog = FileManager.default.temporaryDirectory.appendingPathComponent("drive-\(UUID().uuidString).log")
        process.executableURL = motorbreathBinary
        process.environment = testEnvironment()
        process.arguments = ["sim-board", "--drive-log", driveLog.path] + arguments + (echo ? ["--echo"] : [])
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        ptyPath = firstLine(of: out)
    }

    /// The drive log as written so far (complete after `stop()`).
    var record: DriveRecord { DriveRecord(text: (try? String(contentsOf: driveLog, encoding: .utf8)) ?? "") }

    /// SIGTERM, wait, and return the board's drive log.
    @discardableResult
    func stop() -> DriveRecord {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        gate?.release()
        let r = record
        try? FileManager.default.removeItem(at: driveLog)
        return r
    }

    /// SIGKILL: the board process vanishes (its pty with it). The drive log keeps what it wrote.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        gate?.release()
    }

    /// The drive log lives as long as this object: a killed board's log is read after `kill()`.
    deinit {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: driveLog)
    }
}

/// A host process (`motorbreath ...`) with its JSON report, for signal and recovery tests.
func startHost(_ arguments: [String]) throws -> RunningMotorbreath {
    try RunningMotorbreath(arguments)
}
