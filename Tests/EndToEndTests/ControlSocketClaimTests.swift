// Who owns a control socket's path: a second motorbreath never takes over a live server's socket (it
// says which process holds it), a stale socket is replaced, a path that is not a socket is never removed,
// the socket is made 0600 (or what --control-mode says), and a session removes its socket at the end only
// if the path still names it. Real processes; the oracles are the file system and the kernel's pids.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(5))) struct ControlSocketClaimTests {
    func socketPath(_ tag: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mb-\(tag)-\(UUID().uuidString.prefix(6)).sock").path
    }

    func mode(_ path: String) -> Int {
        var st = stat()
        return lstat(path, &st) == 0 ? Int(st.st_mode & 0o7777) : -1
    }

    func isSocket(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK
    }

    /// Binds a Unix socket at `path` (listening when `listening`); returns its fd.
    func bindSocket(_ path: String, listening: Bool) -> Int32 {
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { b in for (i, c) in path.utf8.enumerated() { b[i] = c } }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if listening { listen(s, 4) }
        return s
    }

    @Test func aSecondServerRefusesALiveSocketAndTheFirstStaysReachable() throws {
        let gate = RealTimeGate()
        defer { gate.release() }
        let path = socketPath("live")
        let first = try RunningMotorbreath(["--simulate", "--pattern", "2-0-2", "--loop", "--quiet", "--control-socket", path])
        defer { if first.process.isRunning { kill(first.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: path)
        _ = client.events(until: { $0["event"] as? String == "prepared" })
        #expect(mode(path) == 0o600)
        let second = try runMotorbreath(["--simulate", "--pattern", "2-0-2", "--loop", "--quiet", "--control-socket", path], timeout: 20)
        #expect(second.status == 1)
        #expect(second.stderr == "motorbreath: \(path) is in use by pid \(first.process.processIdentifier)\n", "\(second.stderr)")
        // The first one still answers on its socket, and ends when told to.
        let again = try SocketClient(path: path)
        _ = again.events(until: { $0["event"] as? String == "prepared" })
        again.send(#"{"command":"finish"}"#)
        let result = first.finish(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))  // its own socket, removed at the end
    }

    @Test func aStaleSocketIsReplacedAndAFileIsLeftAlone() throws {
        let gate = RealTimeGate()
        defer { gate.release() }
        // A socket nobody listens on (a crashed run's): replaced, with the mode asked for.
        let stale = socketPath("stale")
        close(bindSocket(stale, listening: false))
        #expect(isSocket(stale))
        let host = try RunningMotorbreath(["--simulate", "--pattern", "2-0-2", "--loop", "--quiet", "--control-socket", stale, "--control-mode", "660"])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = try SocketClient(path: stale)
        #expect(client.events(until: { $0["event"] as? String == "prepared" }).last?["event"] as? String == "prepared")
        #expect(mode(stale) == 0o660)
        // Meanwhile another server takes the path over: the session must not remove that one's socket.
        unlink(stale)
        let other = bindSocket(stale, listening: true)
        defer { close(other); unlink(stale) }
        client.send(#"{"command":"stop"}"#)
        _ = host.finish(timeout: 20)
        #expect(isSocket(stale), "the session removed a socket that was no longer its own")

        // A regular file at the path: refused, and the file is left as it was.
        let file = socketPath("file")
        try "keep me".write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        let refused = try runMotorbreath(["--simulate", "--pattern", "2-0-2", "--control-socket", file], timeout: 20)
        #expect(refused.status == 1)
        #expect(refused.stderr.split(separator: "\n").count == 1 && refused.stderr.contains("is not a socket"), "\(refused.stderr)")
        #expect((try? String(contentsOfFile: file, encoding: .utf8)) == "keep me")
    }
}
