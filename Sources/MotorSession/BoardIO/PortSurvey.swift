// `motorbreath ports`' survey: the serial ports, which of them a board answers on, their latency timers.
// SPDX-License-Identifier: Apache-2.0

import SerialLink

/// The serial ports on this machine as `motorbreath ports` lists them: each with the board that answers
/// HELLO there (when asked to probe) and an FTDI adapter's latency timer; built-in UARTs only when asked for
/// (most PCs report some with nothing attached). Encodes as the port's fields plus `board` and
/// `latency_timer_ms`.
///
///     let survey = try PortSurvey(all: false, probe: true)
///     print(survey.text)
public struct PortSurvey: Sendable {
    /// One port: what libserialport says of it, the board that answered there, its latency timer.
    public struct Row: Encodable, Sendable {
        public var port: PortInfo
        public var board: String?
        public var latencyTimerMs: Int?
        public func encode(to encoder: Encoder) throws {
            try port.encode(to: encoder)
            var c = encoder.container(keyedBy: Keys.self)
            try c.encodeIfPresent(board, forKey: .board)
            try c.encodeIfPresent(latencyTimerMs, forKey: .latencyTimerMs)
        }
        enum Keys: String, CodingKey { case board, latencyTimerMs = "latency_timer_ms" }
    }

    public let rows: [Row]
    /// Built-in UARTs left out (without `all`).
    public let hidden: Int

    public init(all: Bool, probe: Bool) throws(LinkError) {
        let found = try PortDiscovery.list()
        let ports = all ? found : found.filter { $0.transport != "native" }
        hidden = found.count - ports.count
        rows = ports.map { p in
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
    }

    /// A line a port, or that none was found; then how many built-in UARTs were left out.
    public var text: String {
        var lines = rows.isEmpty ? ["no USB serial ports found (plug in the board; use --simulate to run without one)"]
            : rows.map { $0.port.line(board: $0.board, latencyTimerMs: $0.latencyTimerMs) }
        if hidden > 0 { lines.append("(\(hidden) built-in UART\(hidden == 1 ? "" : "s") not shown: --all lists \(hidden == 1 ? "it" : "them"))") }
        return lines.joined(separator: "\n")
    }
}
