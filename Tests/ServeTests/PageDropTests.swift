// A page that stops reading never slows the breath: its WebSocket gets at most 1000 waiting events, the
// oldest dropped first and one `dropped` event (with the count) in their place, as a control-socket client.
// Judged by conservation: every event sent is either received or counted as dropped, exactly.
// A raw WebSocket client on loopback with a small receive buffer, no board (real-time tier: the server needs
// a free concurrency thread).
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
struct PageDropTests {
    /// A WebSocket client that reads only when asked (server frames are unmasked: opcode, length, payload).
    final class RawSocket: @unchecked Sendable {
        let fd: Int32
        var buffer: [UInt8] = []

        init(port: UInt16) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var small: Int32 = 4096  // the kernel's smallest: the server's writes back up soon
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = port.bigEndian
            inet_pton(AF_INET, "127.0.0.1", &a.sin_addr)
            let ok = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            guard ok == 0 else { throw POSIXError(.ECONNREFUSED) }
            let host = "127.0.0.1:\(port)"
            let hello = "GET /ws HTTP/1.1\r\nHost: \(host)\r\nOrigin: http://\(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            _ = hello.withCString { send(fd, $0, strlen($0), 0) }
        }

        deinit { close(fd) }

        /// Reads more bytes; false on timeout or close.
        func fill() -> Bool {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return false }
            buffer += chunk[0..<n]
            return true
        }

        /// The handshake's status line.
        func handshake() -> String? {
            while true {
                if let end = find([13, 10, 13, 10]) {
                    let head = String(decoding: buffer[0..<end], as: UTF8.self)
                    buffer.removeFirst(end + 4)
                    return head.components(separatedBy: "\r\n").first
                }
                guard fill() else { return nil }
            }
        }

        /// Sends one frame as a browser does (masked).
        func sendFrame(opcode: UInt8, fin: Bool = true, _ payload: [UInt8]) {
            let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode, 0x80 | UInt8(payload.count)]  // payloads < 126 bytes here
            frame += mask
            frame += payload.enumerated().map { $1 ^ mask[$0 % 4] }
            _ = send(fd, frame, frame.count, 0)
        }

        /// The next frame's opcode and payload, nil when none came within the timeout.
        func frame() -> (opcode: UInt8, payload: [UInt8])? {
            while true {
                if buffer.count >= 2, buffer[1] & 0x7F < 126, buffer.count >= 2 + Int(buffer[1] & 0x7F) {
                    let n = Int(buffer[1] & 0x7F), opcode = buffer[0] & 0x0F
                    let payload = Array(buffer[2..<2 + n])
                    buffer.removeFirst(2 + n)
                    return (opcode, payload)
                }
                guard fill() else { return nil }
            }
        }

        /// The next text message, nil when none came within the timeout.
        func message() -> String? {
            while true {
                if buffer.count >= 2 {
                    var length = Int(buffer[1] & 0x7F), start = 2
                    if length == 126, buffer.count >= 4 { length = Int(buffer[2]) << 8 | Int(buffer[3]); start = 4 }
                    if length == 127, buffer.count >= 10 { length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }; start = 10 }
                    if length < 126 || start > 2, buffer.count >= start + length {
                        let text = String(decoding: buffer[start..<start + length], as: UTF8.self)
                        buffer.removeFirst(start + length)
                        return text
                    }
                }
                guard fill() else { return nil }
            }
        }

        private func find(_ pattern: [UInt8]) -> Int? {
            guard buffer.count >= pattern.count else { return nil }
            return (0...(buffer.count - pattern.count)).first { Array(buffer[$0..<$0 + pattern.count]) == pattern }
        }
    }

    /// The protocol's own parts, now that HubSocket speaks it: a ping is answered with its payload, a command
    /// in two fragments is one command, a close is answered with a close and the connection ends. The
    /// socket waits on a plain thread (the server needs Swift's concurrency threads; see ServeTestSupport).
    @Test func pingsFragmentsAndClose() async throws {
        let hub = ControlHub(inbox: ControlInbox(), pattern: try BreathPattern.parse("box"), strength: 1, sharpness: 0.3)
        let (server, port) = try await startServer(hub)
        defer { Thread { server.stop() }.start() }
        struct Seen: Sendable { var status: String?, pong, clock, close: (opcode: UInt8, payload: [UInt8])?, ended: Bool }
        let seen = try await onThread { () throws -> Seen in
            let page = try RawSocket(port: port)
            let status = page.handshake()
            page.sendFrame(opcode: 0x9, Array("are you there".utf8))
            let pong = page.frame()
            page.sendFrame(opcode: 0x1, fin: false, Array(#"{"command":"cl"#.utf8))
            page.sendFrame(opcode: 0x0, Array(#"ock","id":"c1"}"#.utf8))
            let clock = page.frame()
            page.sendFrame(opcode: 0x8, [0x03, 0xE8])  // 1000: normal closure
            let close = page.frame()
            return Seen(status: status, pong: pong, clock: clock, close: close, ended: page.frame() == nil)
        }
        #expect(seen.status == "HTTP/1.1 101 Switching Protocols")
        #expect(seen.pong?.opcode == 0xA && seen.pong?.payload == Array("are you there".utf8))
        let answer = String(decoding: seen.clock?.payload ?? [], as: UTF8.self)
        #expect(seen.clock?.opcode == 0x1 && answer.contains(#""event":"clock""#) && answer.contains(#""id":"c1""#), "\(answer)")
        #expect(seen.close?.opcode == 0x8 && seen.close?.payload == [0x03, 0xE8] && seen.ended)
        for _ in 0..<200 where server.pages != 0 { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(server.pages == 0)
    }

    @Test func aPageThatStopsReadingGetsTheNewestAndACount() async throws {
        let hub = ControlHub(inbox: ControlInbox(), pattern: try BreathPattern.parse("box"), strength: 1, sharpness: 0.3)
        let (server, port) = try await startServer(hub)
        defer { Thread { server.stop() }.start() }
        let total = 50_000
        struct Seen: Sendable { var status: String?, pages: Int, received: [Int], dropped: [Int] }
        let seen = try await onThread { () throws -> Seen in
            let page = try RawSocket(port: port)
            let status = page.handshake()
            for _ in 0..<500 where server.pages == 0 { usleep(10_000) }
            // The page reads nothing while 50 000 events of 300 bytes (15 MB) are sent: far beyond what the
            // sockets' buffers hold, so the page's queue fills and drops.
            let pad = String(repeating: "x", count: 260)
            for n in 0..<total { hub.emit(#"{"event":"test","n":\#(n),"pad":"\#(pad)"}"# + "\n") }
            var received: [Int] = [], dropped: [Int] = []
            while received.last != total - 1, let text = page.message() {
                let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
                if object["event"] as? String == "dropped" { dropped.append(object["count"] as? Int ?? -1) }
                if let n = object["n"] as? Int { received.append(n) }
            }
            return Seen(status: status, pages: server.pages, received: received, dropped: dropped)
        }
        let (received, dropped) = (seen.received, seen.dropped)
        #expect(seen.status == "HTTP/1.1 101 Switching Protocols" && seen.pages == 1)
        print("page that stopped reading: \(received.count) of \(total) events received, dropped \(dropped)")
        // Every event is received or counted, once; the newest arrive; the page is never more than 1000
        // events (plus what the sockets held) behind. FlyingFox's own message handler failed this: it took
        // every event into a buffer without a bound, and all 50 000 arrived.
        #expect(received.count + dropped.reduce(0, +) == total, "received \(received.count), dropped \(dropped)")
        #expect(received.last == total - 1 && received == received.sorted() && !dropped.isEmpty)
        #expect(received.count < total / 2, "the page got \(received.count) of \(total): nothing was dropped")
    }
}
