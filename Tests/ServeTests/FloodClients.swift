// What the flood tests share: `motorbreath serve --simulate` started under a descriptor limit (`ulimit -n`),
// raw loopback connections that send what a hostile client sends, the server's resident memory, and the
// page's pause timed over its WebSocket while a flood runs.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc
import TestSupport

/// `motorbreath serve --simulate` on a free port with at most `descriptors` open files, its output in files.
final class LimitedServe {
    let process = Process()
    let out: URL
    let err: URL
    private(set) var port: UInt16 = 0

    init(descriptors: Int, arguments: [String] = []) throws {
        let dir = FileManager.default.temporaryDirectory
        out = dir.appendingPathComponent("flood-out-\(UUID().uuidString)")
        err = dir.appendingPathComponent("flood-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -n \(descriptors) && exec \"$0\" \"$@\"", motorbreathBinary.path,
                             "serve", "--simulate", "--http-port", "0"] + arguments
        process.environment = testEnvironment()
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && process.isRunning {
            let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            if let p = text.split(separator: ":").last?.split(separator: "/").first.flatMap({ UInt16($0) }),
               stderr.contains("board:") {
                port = p
                break
            }
            usleep(50_000)
        }
    }

    var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

    /// The server's resident memory now, in MB (VmRSS).
    var residentMB: Double { Self.residentMB(process.processIdentifier) }

    /// Process `pid`'s resident memory now, in MB (VmRSS; 0 when it is gone).
    static func residentMB(_ pid: Int32) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
    }
}

/// Raw loopback connections, as a hostile client makes them.
enum Raw {
    /// A connected socket (nil when the connection failed), reads and writes timing out after `timeout` s.
    static func connect(_ port: UInt16, timeout: Int = 5) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var t = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &a.sin_addr)
        let ok = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        if ok != 0 { close(fd); return nil }
        return fd
    }

    /// Sends all of `bytes`; false when the connection refused them (closed, reset, timed out).
    @discardableResult
    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    @discardableResult
    static func send(_ fd: Int32, _ text: String) -> Bool { send(fd, Array(text.utf8)) }

    /// The answer's status code (0: none before the timeout or the close).
    static func status(_ fd: Int32) -> Int {
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !answer.contains(10) {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            answer += chunk[0..<n]
        }
        let line = String(decoding: answer.prefix { $0 != 10 }, as: UTF8.self)
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// One GET of the page on a new connection: its status (0: no connection or no answer).
    static func getPage(_ port: UInt16) -> Int {
        guard let fd = connect(port) else { return 0 }
        defer { close(fd) }
        send(fd, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        return status(fd)
    }

    /// Raises this process's own descriptor limit to at least `count` (the floods hold that many sockets).
    static func allowDescriptors(_ count: Int) {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < rlim_t(count) {
            limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }
}

/// The page's WebSocket (as the page opens it) and its pause, timed.
final class PagePause {
    let page: PageDropTests.RawSocket

    init(port: UInt16) throws {
        page = try PageDropTests.RawSocket(port: port)
        var yes: Int32 = 1  // as a browser: no Nagle holding the second of two small frames for the first's ACK
        setsockopt(page.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard page.handshake() == "HTTP/1.1 101 Switching Protocols" else { throw POSIXError(.ECONNREFUSED) }
        // The greeting: wait until the breath plays (`state` names it), so that a pause is applied.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, let text = page.message(), !text.contains(#""event":"phase""#) {}
    }

    /// Sends `{"command":"pause"}` as the page does, then the resume; how long the pause took to reach the
    /// hub, in ms. A `clock` command follows each on the same socket: the hub answers it with its wall clock
    /// as it handles it, after the command before it, so the pause arrived at most that long after it was
    /// sent (the same host's clock). nil when the clock's answer or the pause's `applied` (the board played
    /// it) did not come within 5 s.
    func pauseArrivalMs() -> Double? {
        let arrival = command("pause")
        _ = command("resume")
        return arrival
    }

    private var asked = 0

    private func command(_ name: String) -> Double? {
        asked += 1
        let id = "arrival-\(asked)"
        let sent = Date().timeIntervalSince1970 * 1000
        page.sendFrame(opcode: 0x1, Array(#"{"command":"\#(name)"}"#.utf8))
        page.sendFrame(opcode: 0x1, Array(#"{"command":"clock","id":"\#(id)"}"#.utf8))
        var arrival: Double?, applied = false
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, arrival == nil || !applied, let text = page.message() {
            if text.contains(#""event":"applied""#) && text.contains(#""command":"\#(name)""#) { applied = true }
            if text.contains(#""event":"clock""#), text.contains(id),
               let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
               let ms = object["unix_ms"] as? Double {
                arrival = ms - sent
            }
        }
        return applied ? arrival : nil
    }
}
