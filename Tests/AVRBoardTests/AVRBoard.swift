// The ATmega328P firmware running in simavr, reached through a pty: hardware/avr's harness in a child
// process (built by its Makefile once per test run), its port, and its record of the PWM pins.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let avrDir = repositoryRoot.appendingPathComponent("hardware/avr")
/// The firmware's UART rate (hardware/avr/src/board.h).
let avrBaud = 500_000

struct AVRBoardError: Error, CustomStringConvertible {
    var description: String
}

/// `make` in hardware/avr: the three firmware variants and the harness (needs gcc-avr, avr-libc,
/// libsimavr-dev: bash .ci/install). Runs once; later calls return its outcome.
enum AVRBuild {
    static let outcome: Result<Void, AVRBoardError> = {
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["make", "-s", "-C", avrDir.path]
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("avr-make-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        do {
            let handle = try FileHandle(forWritingTo: log)
            make.standardOutput = handle
            make.standardError = handle
            try make.run()
            make.waitUntilExit()
        } catch {
            return .failure(AVRBoardError(description: "cannot run make: \(error)"))
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard make.terminationStatus == 0 else {
            return .failure(AVRBoardError(description: "make -C hardware/avr failed (needs gcc-avr, avr-libc, libsimavr-dev: bash .ci/install):\n\(text)"))
        }
        print(text, terminator: "")  // the firmware sizes
        return .success(())
    }()

    static func ensure() throws { try outcome.get() }
}

/// One simulated board: `motorbreath-avr-sim` running a firmware variant.
final class AVRBoard {
    let process = Process()
    let dir: URL
    let port: String
    let recordFile: URL
    let summaryFile: URL
    private var stopped = false
    /// Held while simavr runs: real-time tests share the machine, except with the deliberate load.
    private let gate = RealTimeGate()

    /// `variant`: a directory of hardware/avr/build (erm, erm-hbridge, lra, or a fault-test build);
    /// `options`: more harness options (--old-bootloader).
    init(variant: String = "erm", options: [String] = []) throws {
        try AVRBuild.ensure()
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("mb-avr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        recordFile = dir.appendingPathComponent("record.txt")
        summaryFile = dir.appendingPathComponent("sim.err")
        _ = FileManager.default.createFile(atPath: summaryFile.path, contents: nil)
        process.executableURL = avrDir.appendingPathComponent("build/motorbreath-avr-sim")
        process.arguments = ["--elf", avrDir.appendingPathComponent("build/\(variant)/motorbreath-avr.elf").path,
                             "--record", recordFile.path] + options
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: summaryFile)
        try process.run()
        port = firstLine(of: out)
        guard !port.isEmpty else {
            let why = (try? String(contentsOf: summaryFile, encoding: .utf8)) ?? ""
            throw AVRBoardError(description: "the simulated AVR board did not start: \(why)")
        }
    }

    /// Stops the harness (SIGTERM: it finishes the record) and returns its summary line.
    @discardableResult
    func stop() -> String {
        if !stopped {
            stopped = true
            if process.isRunning { process.terminate() }
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            gate.release()
        }
        return (try? String(contentsOf: summaryFile, encoding: .utf8)) ?? ""
    }

    /// Stops the harness and removes its files.
    func remove() {
        stop()
        try? FileManager.default.removeItem(at: dir)
    }

    /// The pin record so far (the harness flushes it every 20 ms; after stop() it is complete).
    func record() throws -> PinRecord { try PinRecord(contentsOf: recordFile) }
}
