// `motorbreath serve` for real (real-time tier): the page's schedule against the board's ticks (node runs
// schedule.js on a session's events), and the page in headless Chromium (Tests/Browser/serve_page.py).
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import TestSupport

/// The repository's folder (the tests' scripts live in Tests/Browser).
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs a program to its end; its status and standard output (standard error goes to a file shown on failure).
func run(_ program: String, _ arguments: [String], timeout: Double) throws -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [program] + arguments
    p.environment = testEnvironment()  // and so the motorbreath the script starts
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("serve-out-\(UUID().uuidString)")
    let err = FileManager.default.temporaryDirectory.appendingPathComponent("serve-err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
    p.standardOutput = try FileHandle(forWritingTo: out)
    p.standardError = try FileHandle(forWritingTo: err)
    try p.run()
    defer { if p.isRunning { p.terminate() } }
    let deadline = Date().addingTimeInterval(timeout)
    while p.isRunning && Date() < deadline { usleep(50_000) }
    if p.isRunning { p.terminate(); p.waitUntilExit() }
    return (p.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "", (try? String(contentsOf: err, encoding: .utf8)) ?? "")
}

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(3)))
struct ServePageTests {
    /// The schedule the page computes (the next phase start's board tick, from the events before it) against
    /// the ticks the board reported, on a board whose clock runs 300 ppm fast, with a change of pace in the
    /// second phase (13 breaths a minute: phases no longer whole frames long): within 2 ms, every phase.
    @Test func scheduleAgreesWithTheBoardWithin2ms() throws {
        let board = Process()
        board.executableURL = motorbreathBinary
        board.environment = testEnvironment()
        board.arguments = ["sim-board", "--drift-ppm", "300"]
        let pipe = Pipe()
        board.standardOutput = pipe
        try board.run()
        defer { board.terminate(); board.waitUntilExit() }
        let pty = firstLine(of: pipe).trimmingCharacters(in: .whitespacesAndNewlines)
        let events = FileManager.default.temporaryDirectory.appendingPathComponent("serve-events-\(UUID().uuidString).jsonl")
        _ = FileManager.default.createFile(atPath: events.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: events) }
        let play = Process()
        play.executableURL = motorbreathBinary
        play.environment = testEnvironment()
        play.arguments = ["--port", pty, "--pattern", "1.5-0.5-2-1", "--cycles", "4", "--control", "-", "--quiet"]
        let commands = Pipe()
        play.standardInput = commands
        play.standardOutput = try FileHandle(forWritingTo: events)
        play.standardError = FileHandle.nullDevice
        try play.run()
        defer { if play.isRunning { play.terminate() } }
        // The pace as the page sends it, then the state the page asks for (it learns the new bpm from it).
        usleep(3_000_000)
        commands.fileHandleForWriting.write(Data(#"{"command":"pace","bpm":13}"#.utf8 + [10] + #"{"command":"state"}"#.utf8 + [10]))
        let deadline = Date().addingTimeInterval(60)
        while play.isRunning && Date() < deadline { usleep(50_000) }
        try commands.fileHandleForWriting.close()
        #expect(!play.isRunning && play.terminationStatus == 0)
        let check = try run("node", [repository.appendingPathComponent("Tests/Browser/schedule_check.js").path, events.path], timeout: 30)
        #expect(check.status == 0, "\(check.err)")
        let result = try jsonObject(check.out)
        let compared = result["compared"] as? Int ?? 0
        let worst = result["worst_ticks"] as? Double ?? .infinity
        let text = (try? String(contentsOf: events, encoding: .utf8)) ?? ""
        #expect(text.contains(#""command":"pace""#) && text.contains(#""event":"applied""#), "the pace change reached the motor")
        #expect(compared == 15, "phase starts predicted: \(check.out)")  // 4 phases x 4 cycles, the first has none before it
        #expect(worst <= 2000, "worst \(worst) ticks (µs) off the board: \(check.out)")
    }

    /// The page in headless Chromium against serve on a sim-board: the circle within 50 ms of the board's ticks,
    /// the palette dragged by touch reaching the drive log, refusals (foreign Origin, DNS name, no token).
    @Test func pageInARealBrowser() throws {
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("serve-shots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: shots) }
        let r = try run("python3", [repository.appendingPathComponent("Tests/Browser/serve_page.py").path,
                                    "--motorbreath", motorbreathBinary.path, "--shots", shots.path], timeout: 120)
        #expect(r.status == 0, "\(r.err)\n\(r.out)")
        let lastLine = r.out.split(separator: "\n").last.map(String.init) ?? ""
        let result = try jsonObject(lastLine)
        #expect((result["circle_worst_ms"] as? Double ?? .infinity) <= 50)
        #expect(result["ws_foreign_origin"] as? Int == 403 && result["ws_no_token"] as? Int == 403)
        #expect(result["preview_vs_render"] as? Double == 0 && result["preset_played"] as? Bool == true)
        #expect(result["stop_when_closed_exit"] as? Int == 0 && result["last_drive"] as? Int == 0)
        #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent("serve-phone.png").path))
    }

    /// SIGTERM while the page's breath plays: exit 143 and the board's drive log ends with the motor off;
    /// a port already taken is one line and exit 1, before the board is touched.
    @Test func motorOffOnSigtermAndPortInUseIsOneLine() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("serve-drive-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let board = Process()
        board.executableURL = motorbreathBinary
        board.environment = testEnvironment()
        board.arguments = ["sim-board", "--drive-log", log.path]
        let pipe = Pipe()
        board.standardOutput = pipe
        try board.run()
        defer { board.terminate(); board.waitUntilExit() }
        let pty = firstLine(of: pipe).trimmingCharacters(in: .whitespacesAndNewlines)
        let serve = try RunningMotorbreath(["serve", "--port", pty, "--http-port", "0"])
        defer { if serve.process.isRunning { serve.process.terminate() } }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline && !serve.stderrSoFar.contains("board:") { usleep(50_000) }
        usleep(1_500_000)  // playing
        // A second serve on the first one's port: refused in one line.
        let stdout = try String(contentsOfFile: "/proc/\(serve.process.processIdentifier)/fd/1", encoding: .utf8)
        let port = try #require(stdout.split(separator: ":").last?.split(separator: "/").first.map(String.init))
        let second = try runMotorbreath(["serve", "--simulate", "--http-port", port], timeout: 20)
        #expect(second.status == 1)
        #expect(second.stderr.split(separator: "\n").count == 1 && second.stderr.hasPrefix("motorbreath: cannot listen on 127.0.0.1"), "\(second.stderr)")
        serve.process.terminate()
        let ended = serve.finish(timeout: 10)
        #expect(ended.status == 143, "\(ended.stderr)")
        let last = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.last
        #expect(last?.split(separator: " ").last == "0", "last drive change: \(last ?? "none")")
    }
}

/// The page's schedule on recorded sessions (Tests/Browser/fixtures): a pace whose `state` reached the page
/// just before a boundary the host did not change (it waited for the next one), and a pace then a pattern
/// change. Every phase start the schedule predicts agrees with the board's within 2 ms.
@Suite(.tags(.realTime), .timeLimit(.minutes(3)))
struct ScheduleFixtureTests {
    @Test(arguments: ["pace-race.jsonl", "pace-then-pattern.jsonl"])
    func recordedSession(_ name: String) throws {
        let fixture = repository.appendingPathComponent("Tests/Browser/fixtures/\(name)").path
        let check = try run("node", [repository.appendingPathComponent("Tests/Browser/schedule_check.js").path, fixture], timeout: 30)
        #expect(check.status == 0, "\(check.err)")
        let result = try jsonObject(check.out)
        #expect((result["compared"] as? Int ?? 0) >= 12, "\(check.out)")
        #expect((result["worst_ticks"] as? Double ?? .infinity) <= 2000, "\(check.out)")
    }
}
