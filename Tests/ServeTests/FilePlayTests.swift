// `POST /api/play` on a real server (loopback, a free port) spoken to over a plain socket: the file
// queued for serve's loop (202, the latest wins), refused without a taker (409) and when bad (400), its
// name made safe; and the breath serve starts again after a file, with the values the pages left.
// Loopback only, no board (real-time tier: the server needs a free concurrency thread).
// SPDX-License-Identifier: Apache-2.0

import Breath
import BreathWeb
import Foundation
import Glibc
import MotorControl
import MotorSession
import Testing
import TestSupport

@Suite(.tags(.realTime), .timeLimit(.minutes(10)))
struct FilePlayTests {
    static let file = #"{"Version":1,"Pattern":[{"Event":{"Time":0,"EventType":"HapticContinuous","EventDuration":1.25,"EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":0.7}]}}]}"#

    /// Sends one HTTP request and returns the status code and the body's first line. The socket waits on a
    /// thread of its own: the server runs on Swift's concurrency threads (two on a 2-core machine), which
    /// a blocking wait here, beside another suite's blocking test, would leave it none of.
    func post(_ port: UInt16, _ path: String, _ body: String) async -> (status: Int, line: String) {
        await withCheckedContinuation { done in
            Thread { done.resume(returning: Self.exchange(port, path, body)) }.start()
        }
    }

    static func exchange(_ port: UInt16, _ path: String, _ body: String) -> (status: Int, line: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &a.sin_addr)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard connected == 0 else { return (0, "cannot connect: errno \(errno)") }
        let host = "127.0.0.1:\(port)"
        let request = "POST \(path) HTTP/1.1\r\nHost: \(host)\r\nOrigin: http://\(host)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let n = recv(fd, &buffer, buffer.count, 0), n > 0 { answer.append(contentsOf: buffer[0..<n]) }
        let text = String(decoding: answer, as: UTF8.self)
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().first ?? ""
        return (status, body.split(separator: "\n").first.map(String.init) ?? "")
    }

    @Test func aFileIsQueuedForServeAndTheLatestWins() async throws {
        let hub = ControlHub(inbox: ControlInbox(), pattern: try BreathPattern.parse("4-7-8"), strength: 1, sharpness: 0.3)
        let (server, port) = try await startServer(hub)
        defer { Thread { server.stop() }.start() }
        // No taker (a server that plays no files): refused, nothing queued.
        let none = await post(port, "/api/play?name=a.ahap", Self.file)
        #expect(none.status == 409 && none.line == "this server plays no files")
        #expect(server.files.take() == nil)
        let asked = Counter()
        server.files.onRequest = { asked.add() }
        let first = await post(port, "/api/play?name=first.ahap", Self.file)
        #expect(first.status == 202 && first.line == "playing first.ahap (1.2 s), then the breath again")
        let second = await post(port, "/api/play?name=..%2F..%2Fetc%2Fsecond.ahap", Self.file)
        #expect(second.status == 202)
        let taken = try #require(server.files.take())
        #expect(taken.name == "second.ahap" && abs(taken.duration - 1.25) < 1e-9 && asked.value == 2)
        #expect(server.files.take() == nil)  // one slot: the first was replaced
        let bad = await post(port, "/api/play?name=b.ahap", "nonsense")
        #expect(bad.status == 400 && bad.line.hasPrefix("bad AHAP file") && server.files.take() == nil)
        // An MPEG-I .hjif file and a Meta .haptic clip are taken the same way (PatternFile: name and content).
        let box = try BreathPlan(pattern: BreathPattern.parse("box"), options: BreathOptions())
        for format in [PatternFileFormat.hjif, .haptic] {
            let played = await post(port, "/api/play?name=box.\(format.fileExtension)", format.text(box.haptics, duration: box.duration))
            let file = try #require(server.files.take())
            #expect(played.status == 202 && file.name == "box.\(format.fileExtension)" && abs(file.duration - box.duration) < 1e-3, "\(played)")
        }
        let badHJIF = await post(port, "/api/play?name=b.hjif", #"{"version": "2022", "timescale": 1000, "perceptions": []}"#)
        #expect(badHJIF.status == 400 && badHJIF.line.hasPrefix("bad .hjif file: version") && server.files.take() == nil, "\(badHJIF)")
    }

    @Test func namesAreMadeSafeForAnEventLine() {
        #expect(FileRequests.displayName(nil) == "pattern.ahap")
        #expect(FileRequests.displayName("a/b/c.ahap") == "c.ahap")
        #expect(FileRequests.displayName("x\u{0}y\u{1B}[2Jz\u{202E}.ahap") == "xy[2Jz.ahap")
        #expect(FileRequests.displayName(String(repeating: "n", count: 200)).count == 80)
    }

    /// After a file, serve plays the breath again as the pages left it: pattern, strength, sharpness, pace.
    @Test func theBreathAfterAFileKeepsWhatThePagesSet() throws {
        let hub = ControlHub(inbox: ControlInbox(), pattern: try BreathPattern.parse("4-7-8"), strength: 0.8, sharpness: 0.3)
        var options = BreathOptions()
        options.strength = 0.8
        let untouched = hub.restart(options)
        #expect(untouched.pattern.name == "4-7-8" && untouched.options.strength == 0.8 && untouched.options.sharpness == 0.3 && untouched.pace == nil)
        _ = hub.handle(.intensity(0.5))
        _ = hub.handle(.sharpness(0.2))
        _ = hub.handle(.change(.pattern(try BreathPattern.parse("box"), now: true)))
        _ = hub.handle(.change(.pace(breathsPerMinute: 4)))
        _ = hub.handle(.change(.pause))
        let changed = hub.restart(options)
        #expect(changed.pattern.name == "box" && abs(changed.options.strength - 0.4) < 1e-12 && abs(changed.options.sharpness - 0.5) < 1e-12)
        #expect(changed.pace == .pace(breathsPerMinute: 4) && !hub.paused)
    }
}
