// `motorbreath ports`: the serial ports on this machine, for people and (with --json) for scripts.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import MotorSession
import SerialLink

struct PortsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ports",
        abstract: "List serial ports (path, description, USB VID:PID, manufacturer, product, serial number).",
        discussion: """
            USB (and Bluetooth) serial ports are listed; built-in UARTs such as /dev/ttyS0 only with --all \
            (most PCs report some that have nothing attached). Pseudo-terminals are not listed \
            (libserialport skips virtual ttys) but work with --port.
            """
    )

    @Flag(help: "Also list built-in UARTs (/dev/ttyS*, /dev/ttyAMA* on a Raspberry Pi).")
    var all = false

    @Flag(help: "Print a JSON array.")
    var json = false

    @Flag(help: "Ask each port whether a motorbreath board answers (HELLO); marks the ones that do.")
    var probe = false

    struct Row: Encodable {
        var port: PortInfo
        var board: String?
        var latencyTimerMs: Int?
        func encode(to encoder: Encoder) throws {
            try port.encode(to: encoder)
            var c = encoder.container(keyedBy: Keys.self)
            try c.encodeIfPresent(board, forKey: .board)
            try c.encodeIfPresent(latencyTimerMs, forKey: .latencyTimerMs)
        }
        enum Keys: String, CodingKey { case board, latencyTimerMs = "latency_timer_ms" }
    }

    func run() throws {
        let found: [PortInfo]
        do { found = try PortDiscovery.list() } catch { throw fail(error) }
        let ports = all ? found : found.filter { $0.transport != "native" }
        let hidden = found.count - ports.count
        let rows = ports.map { p -> Row in
            var board: String?
            if probe {
                switch BoardProbe.probe(path: p.path) {
                case .board(let info): board = info.displayName
                case .silent: board = nil
                case .unavailable(let e): board = "unavailable: \(e)"
                }
            }
            return Row(port: p, board: board, latencyTimerMs: USBSerialTuning.latencyTimerMs(forPort: p.path))
        }
        if json {
            try printJSON(rows)
            return
        }
        defer {
            if hidden > 0 { print("(\(hidden) built-in UART\(hidden == 1 ? "" : "s") not shown: --all lists \(hidden == 1 ? "it" : "them"))") }
        }
        if ports.isEmpty {
            print("no USB serial ports found (plug in the board; use --simulate to run without one)")
            return
        }
        for r in rows { print(r.port.line(board: r.board, latencyTimerMs: r.latencyTimerMs)) }
    }
}
