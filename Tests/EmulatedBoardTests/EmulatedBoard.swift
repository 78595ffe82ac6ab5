// The real firmware on QEMU's netduinoplus2, reached through a pty: hardware/firmware/run-qemu.sh in
// a child process, its port path, QEMU's log of peripheral register writes, and how long QEMU waited
// for a CPU (the measure of whether the emulator itself could keep time).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

struct EmulatorError: Error, CustomStringConvertible {
    var description: String
}

/// One emulated board: the firmware built by the repository's script, booted in QEMU.
final class EmulatedBoard {
    let process = Process()
    let dir: URL
    let port: String
    let traceFile: URL?

    /// Held while QEMU runs: real-time tests share the machine, except with the deliberate load.
    private let gate = RealTimeGate()

    init(motor: String = "erm", trace: Bool = false, clockNearWrap: Bool = false, injectOverrun: Bool = false,
         faultAtBoot: Bool = false) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("mb-qemu-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        traceFile = trace ? dir.appendingPathComponent("trace.log") : nil
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        var arguments: [String] = [repositoryRoot.appendingPathComponent("hardware/firmware/run-qemu.sh").path,
                                   "--motor", motor, "--dir", dir.path]
        if let traceFile { arguments += ["--trace", traceFile.path] }
        if clockNearWrap { arguments.append("--clock-near-wrap") }
        if injectOverrun { arguments.append("--inject-overrun") }
        if faultAtBoot { arguments.append("--fault-at-boot") }
        process.arguments = arguments
        let out = Pipe()
        let err = dir.appendingPathComponent("run-qemu.err")
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        port = firstLine(of: out)
        guard !port.isEmpty else {
            let why = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
            throw EmulatorError(description: "the emulated board did not start (needs qemu-system-arm, socat, gcc-arm-none-eabi: bash .ci/install): \(why)")
        }
    }

    /// Kills QEMU, socat and the script. SIGKILL: processes started from the test runner inherit its
    /// blocked signal mask, and bash cannot unblock SIGTERM for itself.
    func stop() {
        let pid = process.processIdentifier
        for child in childProcesses(of: pid) { kill(child, SIGKILL) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: dir)
        gate.release()
    }

    /// Nanoseconds each QEMU thread has spent runnable but waiting for a CPU (the second field of
    /// /proc/<pid>/task/<tid>/schedstat), by thread id; nil where the kernel does not say. Time the
    /// emulator wanted to run and could not: guest code then runs late on the guest's own clock.
    func qemuRunQueueWaits() -> [String: UInt64]? {
        let qemu = childProcesses(of: process.processIdentifier).filter {
            (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8))?.hasPrefix("qemu-system") == true
        }
        guard let pid = qemu.first,
              let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var waits: [String: UInt64] = [:]
        for tid in tasks {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/schedstat", encoding: .utf8) else { continue }
            let fields = text.split(separator: " ")
            if fields.count >= 2, let wait = UInt64(fields[1]) { waits[tid] = wait }
        }
        return waits.isEmpty ? nil : waits
    }

    /// Runs `body` and returns its result with the longest time any one QEMU thread waited for a CPU
    /// meanwhile, in ms (nil where the kernel does not say).
    func measuringQemuWait<T>(_ body: () throws -> T) rethrows -> (T, Double?) {
        let before = qemuRunQueueWaits()
        let result = try body()
        guard let before, let after = qemuRunQueueWaits() else { return (result, nil) }
        let worst = after.map { tid, wait in wait &- (before[tid] ?? 0) }.max() ?? 0
        return (result, Double(worst) / 1e6)
    }

    /// Direct children of `parent`, from /proc/<pid>/stat.
    func childProcesses(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> Int32? in
            guard let pid = Int32(name),
                  let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // "pid (comm) state ppid ..."
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent ? pid : nil
        }
    }

    /// Every register write in QEMU's trace so far, in order: (address, value).
    func allWrites() throws -> [(address: UInt32, value: UInt32)] {
        guard let traceFile else { return [] }
        return try traceWrites(in: String(contentsOf: traceFile, encoding: .utf8))
    }

    /// Writes to a TIM1 register seen in QEMU's trace, in order: (host wall-clock time, value).
    func timerWrites(offset: UInt32) throws -> [(at: Date, value: UInt32)] {
        guard let traceFile else { return [] }
        let text = try String(contentsOf: traceFile, encoding: .utf8)
        let address = String(format: "addr 0x%08x ", 0x4001_0000 + offset)
        var out: [(Date, UInt32)] = []
        for line in text.split(separator: "\n") where line.contains(address) {
            // "22158@1795305818.974624:memory_region_ops_write cpu 0 mr 0x.. addr 0x40010034 value 0x1a2 size 4 ..."
            // (QEMU's log trace backend: pid@seconds.microseconds of the host's wall clock)
            let fields = line.split(separator: " ")
            guard let head = fields.first, let at = head.firstIndex(of: "@"), let colon = head.firstIndex(of: ":"),
                  let seconds = Double(head[head.index(after: at)..<colon]),
                  let v = fields.firstIndex(of: "value"), v + 1 < fields.count,
                  let value = UInt32(fields[v + 1].dropFirst(2), radix: 16) else { continue }
            out.append((Date(timeIntervalSince1970: seconds), value))
        }
        return out
    }
}

/// The register writes in a QEMU `memory_region_ops_write` trace, in order: (address, value).
func traceWrites(in text: String) -> [(address: UInt32, value: UInt32)] {
    var out: [(UInt32, UInt32)] = []
    for line in text.split(separator: "\n") where line.contains("memory_region_ops_write") {
        let fields = line.split(separator: " ")
        guard let a = fields.firstIndex(of: "addr"), a + 1 < fields.count,
              let v = fields.firstIndex(of: "value"), v + 1 < fields.count,
              let address = UInt32(fields[a + 1].dropFirst(2), radix: 16),
              let value = UInt32(fields[v + 1].dropFirst(2), radix: 16) else { continue }
        out.append((address, value))
    }
    return out
}
