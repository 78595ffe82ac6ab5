// Running the built motorbreath binary from tests (shared by the end-to-end and emulated-board tests):
// its path, a run to completion with output in files, and a background run a test can signal.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The motorbreath executable built next to the test bundle.
public let motorbreathBinary: URL = {
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return exe.deletingLastPathComponent().appendingPathComponent("motorbreath")
}()

public struct RunResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// motorbreath running in the background. Output goes to files, not pipes: a child writing more than
/// a pipe holds would block forever.
public final class RunningMotorbreath {
    public let process = Process()
    let out: URL
    let err: URL
    /// A config directory of this run's own (removed at the end), unless the test gives XDG_CONFIG_HOME:
    /// a profile or a remembered strength in the user's ~/.config must not change what a test sees.
    let config: URL?

    /// Standard input held open and never written (`silentInput`): a reader that waits for ever.
    private var silentInput: Pipe?

    /// `input`: what the child reads on standard input (default: the test's own); `silentInput`: a pipe
    /// that stays open and says nothing (a person who has not answered yet).
    public init(_ arguments: [String], environment: [String: String] = [:], input: String? = nil, silentInput: Bool = false) throws {
        let dir = FileManager.default.temporaryDirectory
        out = dir.appendingPathComponent("out-\(UUID().uuidString)")
        err = dir.appendingPathComponent("err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.executableURL = motorbreathBinary
        process.arguments = arguments
        var environment = environment
        if environment["XDG_CONFIG_HOME"] == nil {
            let own = dir.appendingPathComponent("config-\(UUID().uuidString)")
            environment["XDG_CONFIG_HOME"] = own.path
            config = own
        } else {
            config = nil
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let input {
            let file = dir.appendingPathComponent("in-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: file.path, contents: Data(input.utf8))
            process.standardInput = try FileHandle(forReadingFrom: file)
            try? FileManager.default.removeItem(at: file)  // the open handle keeps it readable
        }
        if silentInput {
            let pipe = Pipe()
            self.silentInput = pipe
            process.standardInput = pipe
        }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
    }

    /// What it has written to standard error so far (to wait for a line before signalling it).
    public var stderrSoFar: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

    /// Waits up to `timeout` seconds (then terminates it) and returns what it printed.
    public func finish(timeout: Double) -> RunResult {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
            if let config { try? FileManager.default.removeItem(at: config) }
        }
        return RunResult(status: process.terminationStatus,
                         stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                         stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}

/// Runs motorbreath with `arguments` to completion (terminated after `timeout` seconds).
public func runMotorbreath(_ arguments: [String], timeout: Double = 60, environment: [String: String] = [:],
                           input: String? = nil) throws -> RunResult {
    try RunningMotorbreath(arguments, environment: environment, input: input).finish(timeout: timeout)
}

/// The JSON object a command printed.
public func jsonObject(_ text: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        throw JSONShapeError(text: text)
    }
    return object
}

public struct JSONShapeError: Error, CustomStringConvertible {
    public var text: String
    public var description: String { "not a JSON object: \(text)" }
}

/// Real-time tests share the machine; one test loads every core on purpose. It holds this gate exclusively
/// (a file lock, across test targets and processes), the others hold it shared: so the deliberate load
/// never lands on another test's timing, and real-time tests still run side by side otherwise. A second
/// lock, the turnstile, gives the exclusive holder priority: Linux grants a shared `flock` beside a waiting
/// exclusive one, so with two streams taking turns the exclusive test waited for a moment when neither held
/// it (84-104 s in CI); now it waits only for the tests running when it asked.
public final class RealTimeGate {
    public static let path = "/tmp/motorbreath-realtime-tests.lock"
    private var fd: Int32

    /// Blocks until the gate is held (shared, or exclusive). `path`: the lock file (its turnstile is beside
    /// it, `path + ".turnstile"`); tests of the gate itself give one of their own.
    public init(exclusive: Bool = false, path: String = RealTimeGate.path) {
        let turnstile = open(path + ".turnstile", O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        if turnstile >= 0 { while flock(turnstile, LOCK_EX) != 0 && errno == EINTR {} }
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        if fd >= 0 { while flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0 && errno == EINTR {} }
        if turnstile >= 0 { close(turnstile) }  // closing the last descriptor lets the next one through
    }

    public func release() {
        if fd >= 0 {
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}
