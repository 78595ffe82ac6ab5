// The example's client, on a thread of its own: any program could be it. It connects to the app's socket,
// sends typed commands (`StateCommand().line(id: 1)`) and reads every line as its typed event
// (`ControlMessages.event(from:)`) until `finished`.
// SPDX-License-Identifier: Apache-2.0

import Glibc
import MotorControl

/// What the client saw, read by the app once it ended.
struct Seen {
    var events: [any ControlEventMessage] = []
    var problems: [String] = []
}

/// A control-protocol client on a Unix socket: state at once, intensity 0.5 in cycle 1's exhale, finish in
/// cycle 2's inhale.
final class SocketClient: @unchecked Sendable {
    let path: String
    private(set) var seen = Seen()
    private var thread = pthread_t()

    init(path: String) { self.path = path }

    func start() {
        pthread_create(&thread, nil, { me in
            Unmanaged<SocketClient>.fromOpaque(me!).takeRetainedValue().run()
            return nil
        }, Unmanaged.passRetained(self).toOpaque())
    }

    func join() { pthread_join(thread, nil) }

    private func run() {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { for (i, byte) in path.utf8.enumerated() { $0[i] = byte } }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return seen.problems.append("could not connect to \(path)") }
        defer { close(fd) }
        func send(_ line: String) { _ = line.withCString { write(fd, $0, strlen($0)) } }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return seen.problems.append("the server closed before finished") }
            pending += buffer[0..<n]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                guard let event = try? ControlMessages.event(from: line) else {
                    seen.problems.append("not an event this build knows: \(line)")
                    continue
                }
                seen.events.append(event)
                switch event {
                case is PreparedEvent:
                    send(StateCommand().line(id: 1))
                case let phase as PhaseEvent where phase.cycle == 1 && phase.phase == .exhale:
                    send(IntensityCommand(value: 0.5).line(id: "soft"))
                case let phase as PhaseEvent where phase.cycle == 2 && phase.phase == .inhale:
                    send(FinishCommand().line(id: "end"))
                case is FinishedEvent:
                    return
                default:
                    break
                }
            }
        }
    }
}
